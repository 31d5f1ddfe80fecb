package io.lanemq.config;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.lanemq.api.Deduplication;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration file's shape as Jackson reads it: every field optional, nothing validated.
 * {@link PlatformConfigParser} turns it into a validated {@link PlatformConfig}.
 *
 * <p>The descriptions are the published JSON Schema's ({@code docs/platform-config.schema.json}) and reference page's
 * text, generated from these classes; the defaults there come from the model's own defaults. The parser stays the
 * judge of what is valid: the schema is there so editors can complete keys and flag typos as they are typed.
 */
@JsonClassDescription("The LaneMQ platform configuration: clusters, logic topics and what producers and consumers follow. "
        + "One document per platform; applications read it from a file or an etcd key and follow its changes.")
final class RawPlatformConfig {
    @JsonPropertyDescription("The messaging binding to use, by name (e.g. rocketmq); unset: the one binding on the class path.")
    public String binding;
    @JsonPropertyDescription("Every cluster by name (letters, digits, '.', '_', '-'): the IDC it lives in and its name servers. At least one.")
    public Map<String, RawCluster> clusters = new LinkedHashMap<>();
    @JsonPropertyDescription("Settings every producer follows.")
    public RawProducer producer;
    @JsonPropertyDescription("The defaults of every consumer group; a group's own keys override them.")
    public RawConsumer consumer;
    @JsonPropertyDescription("Where delayed messages go (the delay servers' topic and group) and how far ahead they may be due.")
    public RawDelay delay;
    @JsonPropertyDescription("How consumer groups in PROXY mode reach the consumer proxy; required once a group uses PROXY mode.")
    public RawProxy proxy;
    @JsonPropertyDescription("Where stress-test traffic of the logic topics that take it goes.")
    public RawStressTest stressTest;
    @JsonPropertyDescription("Every logic topic by name: its routes to physical topics and the consumer groups allowed on it.")
    public Map<String, RawTopic> topics = new LinkedHashMap<>();
    @JsonPropertyDescription("Other environments sharing this document, by name: each says only how it differs from the top "
            + "level (the 'default' environment). Every environment is validated whenever the document is read.")
    public Map<String, RawEnvironment> environments = new LinkedHashMap<>();
    /** Written by {@link PlatformConfigWriter} for a resolved environment; an environment sets it through its own keys. */
    @JsonPropertyDescription("Appended to every consumer group's name on the brokers. Written by the tools for a resolved "
            + "environment; in a document, set an environment's consumerGroupSuffix instead.")
    public String consumerGroupSuffix;

    /** How one environment differs from the top level (see {@link Environments#resolve}). */
    @JsonClassDescription("How one environment differs from the top level.")
    static final class RawEnvironment {
        @JsonPropertyDescription("Appended to every physical and shadow topic the environment inherits, and to the delay "
                + "servers' topic unless it sets its own, so environments sharing clusters share no topic.")
        public String physicalTopicSuffix;
        /** Appended to consumer group names on the brokers; when absent, the physicalTopicSuffix. */
        @JsonPropertyDescription("Appended to consumer group names on the brokers; unset: the physicalTopicSuffix.")
        public String consumerGroupSuffix;
        @JsonPropertyDescription("Clusters added, or replaced by name.")
        public Map<String, RawCluster> clusters;
        @JsonPropertyDescription("Replaces the top level's delay section.")
        public RawDelay delay;
        @JsonPropertyDescription("Replaces the top level's proxy section.")
        public RawProxy proxy;
        @JsonPropertyDescription("Topics added; for a top-level topic, the keys given replace its own (routes as a whole) "
                + "and its consumer groups are added or replaced by name.")
        public Map<String, RawTopic> topics;
    }

    @JsonClassDescription("One cluster: the IDC it lives in and how to reach it.")
    static final class RawCluster {
        @JsonPropertyDescription("The data centre (IDC) the cluster lives in.")
        public String idc;
        @JsonPropertyDescription("The cluster's name servers, host:port[;host:port...].")
        public String nameServer;
        @JsonPropertyDescription("Binding-specific tuning passed to the binding untouched (e.g. heartbeat intervals).")
        public Map<String, String> properties = Map.of();
        public Boolean tls;
        public RawCredentials credentials;
    }

    /** Where a cluster's keys live: two environment variables, or a file; never the keys. */
    static final class RawCredentials {
        public String accessKeyEnv;
        public String secretKeyEnv;
        public String file;
    }

    @JsonClassDescription("Settings every producer follows.")
    static final class RawProducer {
        @JsonPropertyDescription("How long a send may take in all (ms), its attempts on every cluster together.")
        public Long sendTimeoutMs;
        @JsonPropertyDescription("The largest message body accepted (bytes, at most 64 MiB).")
        public Integer maxBodyBytes;
        @JsonPropertyDescription("How many other clusters a failed send may be retried on (0: none).")
        public Integer retries;
        @JsonPropertyDescription("How long an attempt may go unanswered (ms) while another cluster is left to try; then the "
                + "send goes on to the next cluster. At most sendTimeoutMs.")
        public Long failoverAfterMs;
        @JsonPropertyDescription("How concurrent sends are gathered into batch requests, unless a topic says otherwise.")
        public RawBatch batch;
        @JsonPropertyDescription("The most body bytes one producer holds in sends not yet answered; a send beyond it waits "
                + "for room up to the send timeout. At least maxBodyBytes.")
        public Long maxHeldBytes;
    }

    @JsonClassDescription("How concurrent sends to one queue are gathered into batch requests; in a topic, the keys given "
            + "override the producer's.")
    static final class RawBatch {
        @JsonPropertyDescription("At most this many messages per request; 1 turns gathering off.")
        public Integer maxMessages;
        @JsonPropertyDescription("At most this many bytes (bodies and properties) per request; a larger message goes alone.")
        public Integer maxBytes;
        @JsonPropertyDescription("Requests of one queue in flight at once; what arrives while all are out waits for the next.")
        public Integer maxInFlight;
        @JsonPropertyDescription("How long a request with room left may wait for more messages (ms, at most 100; 0: it leaves at once). "
                + "Adaptive: a send that finds its queue idle waits only while recent waits of that queue gathered a quarter of a "
                + "message or more on average; otherwise it leaves at once and a wait is tried again a second later.")
        public Long lingerMs;
    }

    @JsonClassDescription("Where delayed messages go and how far ahead they may be due.")
    static final class RawDelay {
        @JsonPropertyDescription("The delay servers' topic, same name on every cluster.")
        public String internalTopic;
        @JsonPropertyDescription("The delay servers' consumer group on that topic.")
        public String serverGroup;
        @JsonPropertyDescription("The furthest ahead a due time may be (ms); a send beyond it is refused before anything is sent.")
        public Long maxDelayMs;
        @JsonPropertyDescription("How long a cancel waits for the delay server's answer (ms).")
        public Long cancelTimeoutMs;
    }

    @JsonClassDescription("Where consumer groups in PROXY mode reach the consumer proxy; TLS is mandatory.")
    static final class RawProxy {
        @JsonPropertyDescription("The proxy instances as host:port, tried in turn on reconnect.")
        public List<String> endpoints;
        @JsonPropertyDescription("A PEM file with the CA certificate(s) the proxy's certificate must chain to; required once "
                + "a group uses PROXY mode.")
        public String caCertificate;
    }

    static final class RawStressTest {
        @JsonPropertyDescription("Appended to a route's physical topic to name its shadow topic (same cluster) unless the "
                + "route names its own shadowTopic; never empty.")
        public String shadowSuffix;
    }

    @JsonClassDescription("How a consumer group consumes. In a group, unset keys take the consumer section's values.")
    static final class RawConsumer {
        @JsonPropertyDescription("Listener threads of one consumer in total (1-1024), over all the topic's clusters: DIRECT "
                + "mode splits them over the routes, PROXY mode runs them as one pool.")
        public Integer threads;
        @JsonPropertyDescription("Deliveries before a message goes to the group's dead-letter topic.")
        public Integer maxDeliveryAttempts;
        @JsonPropertyDescription("Where a group with no committed offset starts.")
        public StartPosition startFrom;
        @JsonPropertyDescription("Messages fetched from a queue per request (1-1024).")
        public Integer batchSize;
        @JsonPropertyDescription("DIRECT: the SDK consumes from the brokers itself; PROXY: the consumer proxy pushes the "
                + "messages over gRPC (needs the proxy section).")
        public ConsumptionMode mode;
        @JsonPropertyDescription("PROXY mode: the most messages the proxy holds for the group, fetched and not yet "
                + "acknowledged; 0: the proxy's own default.")
        public Integer maxInFlight;
        @JsonPropertyDescription("PROXY mode: the most messages per second the proxy fetches for the group; 0: unlimited.")
        public Integer maxPerSecond;
        @JsonPropertyDescription("How long (ms) a consumer of the group remembers the messages it processed, to drop "
                + "their copies; 0: off. A subscription's own deduplication setting wins.")
        public Long deduplicateWindowMs;
        @JsonPropertyDescription("What makes two deliveries one message when deduplicateWindowMs is set: MESSAGE_ID (the "
                + "SDK's retries and redeliveries) or FIRST_KEY (the message's first key: a business event sent twice).")
        public Deduplication.Identity deduplicateBy;
    }

    @JsonClassDescription("A logic topic: its routes, one per cluster, and the consumer groups allowed on it.")
    static final class RawTopic {
        @JsonPropertyDescription("One route per cluster: where the topic lives there and the share of sends it gets. At "
                + "least one, weights summing above 0.")
        public List<RawRoute> routes = List.of();
        @JsonPropertyDescription("The consumer groups allowed on the topic, by name; each group's keys override the consumer section's.")
        public Map<String, RawConsumer> consumerGroups = new LinkedHashMap<>();
        @JsonPropertyDescription("The most sends per second all producers of one client may make to the topic; 0: unlimited.")
        public Integer rateLimitPerSecond;
        @JsonPropertyDescription("Whether the topic takes stress-test traffic, sent to each route's shadow topic; false: "
                + "stress-test sends are refused.")
        public Boolean stressTest;
        @JsonPropertyDescription("The topic's own batch gathering: the keys given override the producer's batch section.")
        public RawBatch batch;
    }

    @JsonClassDescription("Where a logic topic lives on one cluster, and the share of sends that cluster gets.")
    static final class RawRoute {
        @JsonPropertyDescription("A cluster of the clusters section; one route per cluster.")
        public String cluster;
        @JsonPropertyDescription("The topic on that cluster's brokers.")
        public String physicalTopic;
        @JsonPropertyDescription("The share of sends (0: consumed but not sent to).")
        public Integer weight;
        @JsonPropertyDescription("Where this route's stress-test traffic goes instead of <physicalTopic><stressTest.shadowSuffix>.")
        public String shadowTopic;
    }
}
