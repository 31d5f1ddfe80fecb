package io.lanemq.config.etcd;

/** An etcd request failed or no endpoint answered; the message names the endpoints, the key and the gRPC status. */
public class EtcdException extends Exception {
    private static final long serialVersionUID = 1L;

    public EtcdException(String message, Throwable cause) {
        super(message, cause);
    }
}
