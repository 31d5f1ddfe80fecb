package io.lanemq.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The broker settings a stack starts from, before {@link StackSpec.Builder#brokerProperty} overrides: RocketMQ's
 * defaults, or the production profile kept in {@code deploy/broker/broker.conf}.
 *
 * <pre>{@code
 * StackSpec tuned = StackSpec.builder().idc(IdcSpec.of("idc-a", "cluster-a"))
 *     .brokerProfile(BrokerProfile.TUNED)
 *     .brokerProperty("sendMessageThreadPoolNums", "2")   // an explicit setting wins over the profile
 *     .build();
 * }</pre>
 *
 * <p>The tuned profile is the very file operators deploy (the build copies it into this jar), less the settings
 * that describe a production topology a loopback test stack does not have; {@link #skipped()} names each with
 * its reason. Every other setting must be one a broker takes, or loading the profile fails.
 */
public enum BrokerProfile {

    /** RocketMQ's own defaults plus the testkit's test settings (small files, fast check-backs): as before profiles. */
    DEFAULT(null),

    /** {@code deploy/broker/broker.conf}: the production profile, as far as a loopback broker can take it. */
    TUNED("profile/broker.conf");

    /**
     * Settings of the production file that describe its topology: the testkit starts masters without slaves, and
     * a master told to wait for a slave it does not have answers every send only after {@code slaveTimeout}
     * (3 s) with {@code FLUSH_SLAVE_TIMEOUT}.
     */
    private static final Map<String, String> TOPOLOGY = Map.of(
        "brokerRole", "replication role; the testkit starts masters without slaves",
        "totalReplicas", "replica count of a broker group; the testkit starts masters without slaves",
        "inSyncReplicas", "replicas that must ack a send; the testkit starts masters without slaves, so a send "
            + "would wait slaveTimeout for an ack that never comes");

    private final String resource;
    private Settings settings;

    BrokerProfile(String resource) {
        this.resource = resource;
    }

    /** The settings this profile applies to every broker of a stack, by RocketMQ property name; immutable. */
    public Map<String, String> properties() {
        return settings().applied;
    }

    /** Settings of the profile's file a loopback test broker does not take, with the reason for each; immutable. */
    public Map<String, String> skipped() {
        return settings().skipped;
    }

    private synchronized Settings settings() {
        if (settings == null) {
            settings = resource == null ? new Settings(Map.of(), Map.of()) : load(resource);
        }
        return settings;
    }

    private static Settings load(String resource) {
        Properties file = new Properties();
        try (InputStream in = BrokerProfile.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("broker profile " + resource + " is missing from the testkit jar "
                    + "(the build copies it from deploy/broker)");
            }
            file.load(in);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read broker profile " + resource + ": " + e.getMessage(), e);
        }
        return parse(resource, file);
    }

    /** Splits a profile file into what a test broker takes and what it skips; fails on a setting brokers lack. */
    static Settings parse(String source, Properties file) {
        // Sorted, so a stack's settings file and toString() read the same in every run.
        Map<String, String> applied = new TreeMap<>();
        Map<String, String> skipped = new TreeMap<>();
        for (String name : file.stringPropertyNames()) {
            String value = file.getProperty(name).trim();
            if (TOPOLOGY.containsKey(name)) {
                skipped.put(name, TOPOLOGY.get(name));
            } else if (BrokerProperties.isOwned(name)) {
                skipped.put(name, "set by the testkit for each node");
            } else {
                try {
                    BrokerProperties.checkOverride(name, value);
                } catch (IllegalArgumentException e) {
                    throw new IllegalStateException("broker profile " + source + ": " + e.getMessage(), e);
                }
                applied.put(name, value);
            }
        }
        return new Settings(Collections.unmodifiableMap(new LinkedHashMap<>(applied)),
            Collections.unmodifiableMap(new LinkedHashMap<>(skipped)));
    }

    record Settings(Map<String, String> applied, Map<String, String> skipped) {
    }
}
