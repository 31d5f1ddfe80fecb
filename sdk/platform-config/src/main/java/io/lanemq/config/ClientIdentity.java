package io.lanemq.config;

import java.util.Objects;

/**
 * Who reads the configuration, as a canary chooses its clients: the application's name (the SDK's
 * {@code applicationName}) and this instance's id (on Kubernetes the pod name, which a restart keeps only within a
 * StatefulSet: a restarted Deployment pod is a new instance and is chosen anew).
 */
public record ClientIdentity(String application, String instance) {
    /** The environment variable that names the instance when the client is not told; Kubernetes sets it to the pod name. */
    public static final String INSTANCE_VARIABLE = "HOSTNAME";

    public ClientIdentity {
        Objects.requireNonNull(application, "application");
        Objects.requireNonNull(instance, "instance");
        if (application.isBlank() || instance.isBlank()) {
            throw new IllegalArgumentException("a client identity needs an application and an instance, was '"
                    + application + "' / '" + instance + "'");
        }
    }

    /** {@code application}'s identity with the instance id the deployment gives: {@code HOSTNAME}, else the host's name. */
    public static ClientIdentity ofDeployment(String application) {
        String instance = System.getenv(INSTANCE_VARIABLE);
        if (instance == null || instance.isBlank()) {
            try {
                instance = java.net.InetAddress.getLocalHost().getHostName();
            } catch (java.net.UnknownHostException e) {
                instance = "unknown-host";
            }
        }
        return new ClientIdentity(application, instance.strip());
    }

    @Override
    public String toString() {
        return application + "/" + instance;
    }
}
