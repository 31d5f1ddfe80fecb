package io.lanemq.rocketmq;

import io.lanemq.api.InvalidConfigurationException;
import io.lanemq.api.MessagingException;
import io.lanemq.api.spi.ClusterEndpoint;
import org.apache.rocketmq.client.ClientConfig;
import org.apache.rocketmq.remoting.RPCHook;

/**
 * For services that run raw RocketMQ clients below the SDK's routing (the consumer proxy and the
 * delay server, through {@link io.lanemq.rocketmq.reader.QueueReader}): they connect to a cluster
 * and read messages exactly as the binding's own clients do, so the same endpoint tuning (parsed
 * only by {@link EndpointTuning}) applies and a message looks the same (id, sharding key, keys, user properties
 * without RocketMQ's system properties) whichever way it was consumed.
 */
public final class RawClientSupport {
    private RawClientSupport() {
    }

    /**
     * Points {@code client} at the endpoint's name server with its own instance name, the endpoint's tuning and TLS; the
     * client must have been constructed with {@link #rpcHook} when the endpoint has credentials.
     */
    public static void connect(ClientConfig client, ClusterEndpoint endpoint) throws InvalidConfigurationException {
        connect(client, endpoint, RocketMqClients.instanceName(endpoint.clusterName()));
    }

    /**
     * As {@link #connect(ClientConfig, ClusterEndpoint)}, with the caller's instance name, which must be
     * distinct per client and cluster (see {@link RocketMqClients} for why).
     *
     * @throws InvalidConfigurationException an endpoint property {@code rocketmq.*} is unknown or out of range
     */
    public static void connect(ClientConfig client, ClusterEndpoint endpoint, String instanceName)
            throws InvalidConfigurationException {
        EndpointTuning settings = EndpointTuning.of(endpoint);
        client.setNamesrvAddr(endpoint.nameServerAddress());
        client.setInstanceName(instanceName);
        ClusterAccess.applyTls(client, endpoint);
        settings.applyTo(client);
    }

    /**
     * The request signer a raw client of a secured endpoint must be constructed with (RocketMQ takes it only in the
     * constructor), or null for an endpoint without credentials.
     *
     * @throws InvalidConfigurationException the credentials cannot be read (a variable unset, a file missing)
     */
    public static RPCHook rpcHook(ClusterEndpoint endpoint) throws InvalidConfigurationException {
        return ClusterAccess.rpcHook(endpoint);
    }

    /**
     * A raw client's failed call (not a send) as the SDK's exception, through the binding's one mapping of RocketMQ's
     * errors; {@code what} says what failed, with its context.
     */
    public static MessagingException failed(Throwable error, String what, String cluster) {
        return RocketMqErrors.callFailed(error, what, cluster);
    }
}
