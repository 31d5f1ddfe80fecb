package io.lanemq.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * What a {@link RocketMqStack} starts: the IDCs (one RocketMQ cluster each), the child JVMs' heap and options,
 * where their temporary directories go, how long starting and stopping may take, the brokers' {@link BrokerProfile}
 * and broker setting overrides.
 * Immutable; the builder validates each setting when it is given and {@link Builder#build()} checks the whole.
 *
 * <pre>{@code
 * StackSpec spec = StackSpec.builder()
 *     .idc(IdcSpec.of("idc-a", "cluster-a"))
 *     .idc(IdcSpec.builder("idc-b").clusterName("cluster-b").brokers(2).build())
 *     .brokerHeapMb(512)
 *     .brokerProperty("flushDiskType", "SYNC_FLUSH")
 *     .build();
 * }</pre>
 */
public final class StackSpec {

    /** Default JVM options of every child: the serial collector keeps a small heap's footprint low on 2 cores. */
    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-XX:+UseSerialGC");

    /** The name of the testkit's super user on brokers with access control on. */
    public static final String ACL_ADMIN_NAME = "lanemq-testkit-admin";

    private final List<IdcSpec> idcs;
    private final int brokerHeapMb;
    private final int nameServerHeapMb;
    private final List<String> jvmOptions;
    private final Path baseDir;
    private final Duration startTimeout;
    private final Duration stopTimeout;
    private final BrokerProfile brokerProfile;
    private final Map<String, String> brokerProperties;
    private final List<AclUser> aclUsers;
    private final AclUser aclAdmin;
    private final Path tlsCertificate;
    private final Path tlsPrivateKey;

    private StackSpec(Builder builder) {
        this.idcs = List.copyOf(builder.idcs);
        this.brokerHeapMb = builder.brokerHeapMb;
        this.nameServerHeapMb = builder.nameServerHeapMb;
        this.jvmOptions = List.copyOf(builder.jvmOptions);
        this.baseDir = builder.baseDir;
        this.startTimeout = builder.startTimeout;
        this.stopTimeout = builder.stopTimeout;
        this.brokerProfile = builder.brokerProfile;
        this.brokerProperties = Collections.unmodifiableMap(new LinkedHashMap<>(builder.brokerProperties));
        this.aclUsers = List.copyOf(builder.aclUsers);
        this.aclAdmin = aclUsers.isEmpty() ? null : builder.aclAdmin();
        this.tlsCertificate = builder.tlsCertificate;
        this.tlsPrivateKey = builder.tlsPrivateKey;
    }

    /** Two IDCs, {@code idc-a}/{@code cluster-a} and {@code idc-b}/{@code cluster-b}, one broker each. */
    public static StackSpec dualIdc() {
        return builder().idc(IdcSpec.of("idc-a", "cluster-a")).idc(IdcSpec.of("idc-b", "cluster-b")).build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder preset with this spec's settings, to derive a variant. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.idcs.addAll(idcs);
        b.brokerHeapMb = brokerHeapMb;
        b.nameServerHeapMb = nameServerHeapMb;
        b.jvmOptions = jvmOptions;
        b.baseDir = baseDir;
        b.startTimeout = startTimeout;
        b.stopTimeout = stopTimeout;
        b.brokerProfile = brokerProfile;
        b.brokerProperties.putAll(brokerProperties);
        b.aclUsers.addAll(aclUsers);
        b.aclAdmin = aclAdmin;
        b.tlsCertificate = tlsCertificate;
        b.tlsPrivateKey = tlsPrivateKey;
        return b;
    }

    public List<IdcSpec> idcs() {
        return idcs;
    }

    /** Maximum heap of each broker JVM in MiB (default 384). */
    public int brokerHeapMb() {
        return brokerHeapMb;
    }

    /** Maximum heap of each name server JVM in MiB (default 128). */
    public int nameServerHeapMb() {
        return nameServerHeapMb;
    }

    /** Extra options of every child JVM, after the heap options (default {@link #DEFAULT_JVM_OPTIONS}). */
    public List<String> jvmOptions() {
        return jvmOptions;
    }

    /** Directory under which the stack creates its own temporary directory (default {@code java.io.tmpdir}). */
    public Path baseDir() {
        return baseDir;
    }

    /** How long one start (of the stack, an IDC or a node) may take until every server is ready (default 90 s). */
    public Duration startTimeout() {
        return startTimeout;
    }

    /** How long a graceful stop may take before the child is killed (default 60 s). */
    public Duration stopTimeout() {
        return stopTimeout;
    }

    /** The settings every broker starts from, before {@link #brokerProperties()} (default {@code DEFAULT}). */
    public BrokerProfile brokerProfile() {
        return brokerProfile;
    }

    /** Broker settings that override the testkit's defaults and the {@link #brokerProfile()}, by property name. */
    public Map<String, String> brokerProperties() {
        return brokerProperties;
    }

    /** The application accounts of brokers with access control on; empty when it is off (the default). */
    public List<AclUser> aclUsers() {
        return aclUsers;
    }

    /**
     * Whether every name server and broker accepts TLS connections only ({@link Builder#tls}); clients then need
     * {@code setUseTLS(true)} and, to verify the servers, trust {@link #tlsCertificate()}.
     */
    public boolean tls() {
        return tlsCertificate != null;
    }

    /** The PEM certificate the servers present when {@link #tls()}, else null. */
    public Path tlsCertificate() {
        return tlsCertificate;
    }

    /** The PEM (unencrypted PKCS#8) private key of {@link #tlsCertificate()}, else null. */
    public Path tlsPrivateKey() {
        return tlsPrivateKey;
    }

    /** Whether the brokers authenticate and authorize every request (RocketMQ ACL 2.0): when {@link #aclUsers()} are set. */
    public boolean aclEnabled() {
        return aclAdmin != null;
    }

    /**
     * The testkit's own super user on brokers with access control on (a random secret per spec): topic creation and
     * the brokers' own inner clients use it, and a test may for raw admin calls.
     *
     * @throws IllegalStateException when access control is off
     */
    public AclUser aclAdmin() {
        if (aclAdmin == null) {
            throw new IllegalStateException("access control is off: give the StackSpec an aclUser");
        }
        return aclAdmin;
    }

    @Override
    public String toString() {
        return "StackSpec[idcs=" + idcs + ", brokerHeapMb=" + brokerHeapMb + ", nameServerHeapMb=" + nameServerHeapMb
            + ", jvmOptions=" + jvmOptions + ", baseDir=" + baseDir + ", startTimeout=" + startTimeout
            + ", stopTimeout=" + stopTimeout + ", brokerProfile=" + brokerProfile
            + ", brokerProperties=" + brokerProperties + (aclUsers.isEmpty() ? "" : ", aclUsers=" + aclUsers)
            + (tls() ? ", tls=" + tlsCertificate : "") + "]";
    }

    /** Builder of {@link StackSpec}; not thread-safe. */
    public static final class Builder {
        private static final int MIN_HEAP_MB = 64;
        private static final int MAX_HEAP_MB = 16 * 1024;

        private final List<IdcSpec> idcs = new ArrayList<>();
        private int brokerHeapMb = 384;
        private int nameServerHeapMb = 128;
        private List<String> jvmOptions = DEFAULT_JVM_OPTIONS;
        private Path baseDir = Path.of(System.getProperty("java.io.tmpdir"));
        private Duration startTimeout = Duration.ofSeconds(90);
        private Duration stopTimeout = Duration.ofSeconds(60);
        private BrokerProfile brokerProfile = BrokerProfile.DEFAULT;
        private final Map<String, String> brokerProperties = new LinkedHashMap<>();
        private final List<AclUser> aclUsers = new ArrayList<>();
        private AclUser aclAdmin;
        private Path tlsCertificate;
        private Path tlsPrivateKey;

        private Builder() {
        }

        /** Adds an IDC; IDC names and cluster names must be unique within the stack. */
        public Builder idc(IdcSpec idc) {
            Objects.requireNonNull(idc, "idc");
            for (IdcSpec existing : idcs) {
                if (existing.name().equals(idc.name())) {
                    throw new IllegalArgumentException("duplicate IDC name: " + idc.name());
                }
                if (existing.clusterName().equals(idc.clusterName())) {
                    throw new IllegalArgumentException("duplicate clusterName: " + idc.clusterName());
                }
            }
            idcs.add(idc);
            return this;
        }

        public Builder brokerHeapMb(int mb) {
            this.brokerHeapMb = checkHeap("brokerHeapMb", mb);
            return this;
        }

        public Builder nameServerHeapMb(int mb) {
            this.nameServerHeapMb = checkHeap("nameServerHeapMb", mb);
            return this;
        }

        /** Replaces the extra JVM options (heap options are set separately and must not appear here). */
        public Builder jvmOptions(List<String> options) {
            Objects.requireNonNull(options, "jvmOptions");
            for (String option : options) {
                if (option == null || !option.startsWith("-")) {
                    throw new IllegalArgumentException("jvmOptions entries must start with '-': " + option);
                }
                if (option.startsWith("-Xmx") || option.startsWith("-Xms")) {
                    throw new IllegalArgumentException(
                        "jvmOptions must not set the heap, use brokerHeapMb/nameServerHeapMb: " + option);
                }
            }
            this.jvmOptions = List.copyOf(options);
            return this;
        }

        public Builder baseDir(Path dir) {
            Objects.requireNonNull(dir, "baseDir");
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("baseDir must be an existing directory: " + dir);
            }
            this.baseDir = dir;
            return this;
        }

        public Builder startTimeout(Duration timeout) {
            this.startTimeout = checkPositive("startTimeout", timeout);
            return this;
        }

        public Builder stopTimeout(Duration timeout) {
            this.stopTimeout = checkPositive("stopTimeout", timeout);
            return this;
        }

        /**
         * The settings every broker starts from: {@link BrokerProfile#DEFAULT} (RocketMQ's defaults, the default)
         * or {@link BrokerProfile#TUNED} (the production profile of {@code deploy/broker/broker.conf}). Settings
         * given with {@link #brokerProperty} win over the profile's.
         */
        public Builder brokerProfile(BrokerProfile profile) {
            this.brokerProfile = Objects.requireNonNull(profile, "brokerProfile");
            return this;
        }

        /**
         * Overrides one broker setting (a property of RocketMQ's {@code BrokerConfig}, {@code MessageStoreConfig},
         * {@code NettyServerConfig} or {@code NettyClientConfig}). Unknown names, unparsable values and the
         * settings the testkit owns (names, addresses, ports, store paths) are rejected here, because RocketMQ
         * itself ignores them silently.
         */
        public Builder brokerProperty(String name, String value) {
            BrokerProperties.checkOverride(name, value);
            brokerProperties.put(name, value);
            return this;
        }

        /**
         * Turns access control on (RocketMQ 5.3's ACL 2.0: every broker authenticates each request's signature and
         * authorizes it) and adds an application account that may publish and subscribe on {@code resources} only
         * ({@code Topic:orders}, {@code Group:billing}, {@code Topic:acl-*}). The testkit creates the accounts on every
         * broker when the stack starts, with its own super user ({@link StackSpec#aclAdmin()}), which also creates
         * the topics. Name servers stay open: RocketMQ 5.3 does not authenticate route queries.
         */
        public Builder aclUser(String name, String secret, String... resources) {
            AclUser user = new AclUser(name, secret, List.of(resources));
            if (aclUsers.stream().anyMatch(u -> u.name().equals(name)) || name.equals(ACL_ADMIN_NAME)) {
                throw new IllegalArgumentException("ACL user " + name + " is given twice or is the testkit's admin");
            }
            aclUsers.add(user);
            return this;
        }

        /**
         * Makes every name server and broker accept TLS only (RocketMQ's {@code tls.server.mode=enforcing}), serving
         * {@code certificatePem} with its unencrypted PKCS#8 {@code privateKeyPem}, e.g. those of
         * {@link io.lanemq.testkit.tls.SelfSignedCertificate#shared()} (valid for 127.0.0.1 and localhost); brokers
         * reach their name server over TLS too. A plain TCP client is refused.
         */
        public Builder tls(Path certificatePem, Path privateKeyPem) {
            for (Path file : List.of(Objects.requireNonNull(certificatePem, "certificatePem"),
                    Objects.requireNonNull(privateKeyPem, "privateKeyPem"))) {
                if (!Files.isRegularFile(file)) {
                    throw new IllegalArgumentException("TLS file must exist: " + file);
                }
            }
            this.tlsCertificate = certificatePem;
            this.tlsPrivateKey = privateKeyPem;
            return this;
        }

        private AclUser aclAdmin() {
            if (aclAdmin == null) {
                aclAdmin = new AclUser(ACL_ADMIN_NAME, UUID.randomUUID().toString(), List.of("Topic:*"));
            }
            return aclAdmin;
        }

        public StackSpec build() {
            if (idcs.isEmpty()) {
                throw new IllegalArgumentException("a StackSpec needs at least one IDC");
            }
            return new StackSpec(this);
        }

        private static int checkHeap(String name, int mb) {
            if (mb < MIN_HEAP_MB || mb > MAX_HEAP_MB) {
                throw new IllegalArgumentException(
                    name + " must be in [" + MIN_HEAP_MB + ", " + MAX_HEAP_MB + "] MiB: " + mb);
            }
            return mb;
        }

        private static Duration checkPositive(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive: " + d);
            }
            return d;
        }
    }
}
