package io.lanemq.dedup.redis;

import io.lanemq.api.DeduplicationStore;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisPooled;
import redis.clients.jedis.params.SetParams;

/**
 * A {@link DeduplicationStore} on one Redis server, shared by every instance of the groups that use it. Each
 * identity is one string key, {@code <namespace><group>:<logic topic>:<identity>} (namespace
 * {@value #DEFAULT_NAMESPACE} unless set), holding {@code RUNNING:<owner>} while claimed and {@code DONE} once
 * processed, and expiring on its own: a claim after the claim ttl, a success after the window.
 *
 * <ul>
 *   <li>claim: {@code SET key RUNNING:<owner> NX PX ttl}, and when it was not set, the value found, in one Lua
 *       script (atomic, one round trip).</li>
 *   <li>done: {@code SET key DONE PX window}.</li>
 *   <li>release: delete the key only if it still holds {@code RUNNING:<owner>} (a Lua compare-and-delete), so a
 *       release arriving after its claim expired never deletes another attempt's claim or a {@code DONE}.</li>
 * </ul>
 *
 * <p>Every call is bounded by the timeout (connect, read and waiting for a pooled connection) and throws Jedis's
 * unchecked exceptions beyond it, which the SDK takes as "unreachable" (the message is processed). Thread-safe: a
 * pool of connections. The caller closes it, after the clients that use it.
 *
 * <pre>{@code
 * try (RedisDeduplicationStore store = RedisDeduplicationStore.builder("redis.internal", 6379).build()) {
 *     Subscription subscription = Subscription.builder("order-paid", "billing")
 *             .deduplicate(Deduplication.byMessageId(Duration.ofMinutes(10)).withStore(store))
 *             .build();
 * }
 * }</pre>
 */
public final class RedisDeduplicationStore implements DeduplicationStore, AutoCloseable {
    public static final String DEFAULT_NAMESPACE = "lanemq:dedup:";
    /** Long enough for a loaded server on the same network, short enough that a dead one delays a message little. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(500);
    public static final int DEFAULT_MAX_CONNECTIONS = 16;

    private static final String RUNNING = "RUNNING:";
    private static final String DONE = "DONE";
    private static final String CLAIM = "if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 'CLAIMED' end "
            + "return redis.call('GET', KEYS[1])";
    private static final String RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end "
            + "return 0";

    private final JedisPooled redis;
    private final String namespace;
    private final String description;

    private RedisDeduplicationStore(Builder builder) {
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(builder.maxConnections);
        pool.setMaxIdle(builder.maxConnections);
        pool.setMaxWait(builder.timeout); // the pool waits for ever by default
        pool.setJmxEnabled(false);
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(Math.toIntExact(builder.timeout.toMillis()))
                .socketTimeoutMillis(Math.toIntExact(builder.timeout.toMillis()))
                .clientName("lanemq-dedup");
        if (builder.password != null) {
            client.user(builder.user).password(builder.password);
        }
        this.redis = new JedisPooled(pool, new HostAndPort(builder.host, builder.port), client.build());
        this.namespace = builder.namespace;
        this.description = "RedisDeduplicationStore[" + builder.host + ":" + builder.port + ", namespace=" + namespace + "]";
    }

    /** A store on {@code host:port}; {@link Builder#build()} connects lazily, on the first call. */
    public static Builder builder(String host, int port) {
        return new Builder(host, port);
    }

    @Override
    public Claim claim(String key, String owner, Duration ttl) {
        Object found = redis.eval(CLAIM, List.of(namespace + key), List.of(RUNNING + owner, Long.toString(millis(ttl, "ttl"))));
        if ("CLAIMED".equals(found)) {
            return Claim.CLAIMED;
        }
        // Anything but DONE (a claim, or a value this store did not write) is left alone until it expires.
        return DONE.equals(found) ? Claim.DONE : Claim.RUNNING;
    }

    @Override
    public void done(String key, Duration window) {
        redis.set(namespace + key, DONE, SetParams.setParams().px(millis(window, "window")));
    }

    @Override
    public void release(String key, String owner) {
        redis.eval(RELEASE, List.of(namespace + key), List.of(RUNNING + owner));
    }

    private static long millis(Duration duration, String name) {
        long millis = duration.toMillis();
        if (millis < 1) {
            throw new IllegalArgumentException(name + " must be at least 1 ms, was " + duration);
        }
        return millis;
    }

    @Override
    public void close() {
        redis.close();
    }

    @Override
    public String toString() {
        return description;
    }

    /** Settings of a {@link RedisDeduplicationStore}, each checked as it is given. Not thread-safe. */
    public static final class Builder {
        private final String host;
        private final int port;
        private Duration timeout = DEFAULT_TIMEOUT;
        private String namespace = DEFAULT_NAMESPACE;
        private int maxConnections = DEFAULT_MAX_CONNECTIONS;
        private String user;
        private String password;

        private Builder(String host, int port) {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("redis host must not be blank");
            }
            if (port < 1 || port > 65_535) {
                throw new IllegalArgumentException("redis port must be within 1..65535, was " + port);
            }
            this.host = host;
            this.port = port;
        }

        /** Bounds connecting, each command and waiting for a free connection (default {@link #DEFAULT_TIMEOUT}). */
        public Builder timeout(Duration timeout) {
            Objects.requireNonNull(timeout, "redis timeout");
            if (timeout.toMillis() < 1 || timeout.toMillis() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("redis timeout must be within 1 ms..24 days, was " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /** Prefix of every key (default {@value #DEFAULT_NAMESPACE}): one Redis shared by several platforms or uses. */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "redis namespace");
            return this;
        }

        /** Connections held at most (default {@link #DEFAULT_MAX_CONNECTIONS}): about the consuming threads. */
        public Builder maxConnections(int maxConnections) {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("redis maxConnections must be at least 1, was " + maxConnections);
            }
            this.maxConnections = maxConnections;
            return this;
        }

        /** Redis ACL user and password ({@code user} null: the default user, {@code requirepass}). */
        public Builder credentials(String user, String password) {
            this.user = user;
            this.password = Objects.requireNonNull(password, "redis password");
            return this;
        }

        public RedisDeduplicationStore build() {
            return new RedisDeduplicationStore(this);
        }
    }
}
