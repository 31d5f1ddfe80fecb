package io.lanemq.api;

import io.lanemq.api.InvalidConfigurationException;
import java.net.BindException;

/**
 * The lane forwarding endpoint of a client's {@link io.lanemq.api.LaneOptions} cannot start: its address
 * cannot be bound, or its TLS material cannot be used. A type of its own, so that whoever built the lane
 * options (a Spring property, a command-line flag) can name the setting at fault rather than the platform
 * configuration.
 */
public final class LaneEndpointException extends InvalidConfigurationException {
    private final boolean addressInUse;

    public LaneEndpointException(String reason, Throwable cause) {
        super(reason, cause);
        this.addressInUse = addressInUse(cause);
    }

    /** Whether the listen port was taken (the listen port's fault), rather than the address or the TLS files. */
    public boolean addressInUse() {
        return addressInUse;
    }

    // gRPC's Netty transport reports a taken port as a plain IOException, so the OS's text is the only sign of it.
    private static boolean addressInUse(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BindException || (t.getMessage() != null && t.getMessage().contains("Address already in use"))) {
                return true;
            }
        }
        return false;
    }
}
