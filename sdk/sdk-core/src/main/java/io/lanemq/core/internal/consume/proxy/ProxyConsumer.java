package io.lanemq.core.internal.consume.proxy;

import io.grpc.Status;
import io.lanemq.api.ConsumeResult;
import io.lanemq.api.MessageListener;
import io.lanemq.api.spi.BoundMessage;
import io.lanemq.core.internal.consume.listener.DeliveredMessage;
import io.lanemq.core.internal.consume.listener.ListenerAdapter;
import io.lanemq.core.metrics.SdkMetrics;
import io.lanemq.proxy.protocol.Delivery;
import io.lanemq.proxy.protocol.Subscribe;
import io.lanemq.proxy.protocol.Subscribed;
import io.lanemq.support.NamedThreads;
import io.lanemq.support.Ticker;
import io.micrometer.core.instrument.Meter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PROXY consumption of one subscription: a {@code Consume} stream to the consumer proxy, whose
 * deliveries run the application's listener on {@code threads} threads through the same
 * {@link ListenerAdapter} as DIRECT mode (same messages, metrics, retry-on-exception). SUCCESS acks,
 * anything else nacks (the proxy redelivers with attempt + 1); each settled delivery grants one credit
 * back, so at most {@link ProxyConsumerSpec#credits()} messages are out at once. Acks leave in batches
 * of up to {@link ProxyConsumerSpec#ackBatch()} (see {@link AckBatcher}: a batch never waits longer
 * than {@value #MAX_ACK_DELAY_MILLIS} ms, nor at all, for an ordered subscription, once the consumer holds
 * nothing else).
 *
 * <p>A stream that breaks is reopened after a backoff, on the next endpoint. A refusal (wrong token,
 * unknown group) is logged as an error, counted ({@link SdkMetrics#PROXY_STREAM_ENDS}), and retried slowly:
 * an operator can fix the token or the configuration without restarting the application.
 * Ordered subscriptions run one message per (cluster, sharding key) at a time, in delivery order.
 *
 * <p>{@link #pause()} takes back the credits the proxy has not used and grants none until {@link #resume()}: the
 * deliveries already pushed are processed and acked as usual, and nothing more comes. A stream opened while paused
 * subscribes with no credits.
 */
public final class ProxyConsumer implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ProxyConsumer.class);
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    /** How long close() lets running listeners finish, so their acks reach the proxy. */
    private static final Duration LISTENER_GRACE = Duration.ofSeconds(10);
    /** Far below any ack timeout, and long enough for a busy consumer's listener threads to fill a batch. */
    private static final long MAX_ACK_DELAY_MILLIS = 2;
    /**
     * With more than one endpoint, a proxy that has not answered Subscribe by then (silent: its IDC cut off, its host
     * gone) is given up for the next one: gRPC would wait for its connect timeout (20 s) or TLS handshake timeout
     * (10 s). With one endpoint there is nothing else to try, so the stream waits for gRPC's own verdict.
     */
    static final Duration SUBSCRIBE_ANSWER_WITHIN = Duration.ofSeconds(3);

    private final ProxyConsumerSpec spec;
    private final MessageListener listener;
    private final SdkMetrics metrics;
    private final Ticker ticker;
    private final String consumerId;
    private final TagFilter tagFilter;
    private final ProxyChannels channels;
    private final ExecutorService listenerThreads;
    private final KeyedSerialExecutor byKey;
    /** Reconnects and ack batches that wait ({@link AckBatcher}). */
    private final ScheduledExecutorService timers;
    /** Guarded by {@code this}. */
    private final StreamFailures failures = new StreamFailures(() -> ThreadLocalRandom.current().nextDouble());
    private final Map<String, ListenerAdapter> adapters = new ConcurrentHashMap<>();
    private final Meter connectedGauge;
    /** Guarded by {@code this}. */
    private ProxyStream current;
    /** The last stream the proxy answered Subscribe on; guarded by {@code this}. */
    private ProxyStream subscribedStream;
    private boolean closed;
    /** Guarded by {@code this}. */
    private boolean paused;
    /** What the connected gauge reads. */
    private volatile boolean connected;
    /**
     * The group's attempts before the dead-letter topic, as the proxy that delivers said when it subscribed this
     * stream (0 until then): the proxy, not this client, decides, so a listener's last-attempt hook needs its figure.
     */
    private volatile int maxDeliveryAttempts;

    private ProxyConsumer(ProxyConsumerSpec spec, MessageListener listener, SdkMetrics metrics, Ticker ticker) {
        this.spec = spec;
        this.listener = listener;
        this.metrics = metrics;
        this.ticker = ticker;
        int sequence = SEQUENCE.incrementAndGet();
        this.consumerId = spec.application() + "-" + ProcessHandle.current().pid() + "-" + sequence;
        this.tagFilter = TagFilter.parse(spec.subscription().tagFilter());
        this.channels = new ProxyChannels(spec);
        this.listenerThreads = Executors.newFixedThreadPool(spec.threads(),
                NamedThreads.numbered(NamedThreads.name("lanemq-proxy-consumer", spec.group(), String.valueOf(sequence))));
        this.byKey = new KeyedSerialExecutor(listenerThreads);
        this.timers = Executors.newSingleThreadScheduledExecutor(
                NamedThreads.single(NamedThreads.name("lanemq-proxy-timers", spec.group(), String.valueOf(sequence))));
        this.connectedGauge = metrics.proxyConnectedGauge(spec.logicTopic(), spec.group(), consumerId, () -> connected ? 1 : 0);
    }

    /**
     * Starts consuming: the stream opens in the background, and reopens whenever it breaks.
     *
     * @throws java.io.UncheckedIOException the CA certificate cannot be read
     */
    public static ProxyConsumer start(ProxyConsumerSpec spec, MessageListener listener, SdkMetrics metrics, Ticker ticker) {
        return start(spec, listener, metrics, ticker, false);
    }

    /** As above, paused from the start when {@code paused} (see {@link #pause()}). */
    public static ProxyConsumer start(ProxyConsumerSpec spec, MessageListener listener, SdkMetrics metrics, Ticker ticker,
                                      boolean paused) {
        ProxyConsumer consumer = new ProxyConsumer(spec, listener, metrics, ticker);
        consumer.paused = paused;
        consumer.timers.execute(consumer::connect);
        return consumer;
    }

    public ProxyConsumerSpec spec() {
        return spec;
    }

    private synchronized void connect() {
        if (closed) {
            return;
        }
        ProxyChannels.Target target = channels.next();
        current = ProxyStream.open(target, Subscribe.newBuilder()
                .setApplication(spec.application())
                .setConsumerGroup(spec.group())
                .setLogicTopic(spec.logicTopic())
                .setConsumerId(consumerId)
                .setInitialCredits(paused ? 0 : spec.credits())
                .setAcceptsBatches(true)
                .setLane(spec.lane())
                .build(), new Events(), new ProxyStream.AckBatching(spec.ackBatch(), Duration.ofMillis(MAX_ACK_DELAY_MILLIS),
                spec.subscription().ordered()), timers, spec.credits());
        if (spec.endpoints().size() > 1) {
            ProxyStream opened = current;
            timers.schedule(() -> giveUpIfUnanswered(opened), SUBSCRIBE_ANSWER_WITHIN.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    /** Cancels {@code stream} if the proxy has not answered its Subscribe; its end reconnects to the next endpoint. */
    private void giveUpIfUnanswered(ProxyStream stream) {
        synchronized (this) {
            if (closed || stream != current || stream == subscribedStream) {
                return;
            }
        }
        stream.cancel("no answer to Subscribe from " + stream.endpoint() + " within " + SUBSCRIBE_ANSWER_WITHIN.toMillis()
                + " ms; trying the next consumer proxy");
    }

    private void process(ProxyStream stream, Delivery delivery, BoundMessage message) {
        ListenerAdapter adapter = adapters.computeIfAbsent(delivery.getCluster(),
                cluster -> new ListenerAdapter(spec.logicTopic(), spec.group(), cluster, listener, metrics, ticker, 0,
                        spec.subscription().retryBackoff().isPresent() ? SdkMetrics.RetryPath.PROXY : null));
        DeliveredMessage delivered = new DeliveredMessage(spec.logicTopic(), delivery.getCluster(), message,
                maxDeliveryAttempts);
        long deliveryId = delivery.getDeliveryId();
        switch (adapter.consume(delivered)) {
            case SUCCESS -> stream.ack(deliveryId);
            // With the subscription's back-off the proxy waits exactly its delay; without, the proxy's own back-off.
            case RETRY_LATER -> spec.subscription().retryBackoff().ifPresentOrElse(
                    backoff -> stream.nack(deliveryId, backoff.delayAfter(delivered.deliveryAttempt())),
                    () -> stream.nack(deliveryId));
            case DEAD_LETTER -> stream.deadLetter(deliveryId);
        }
    }

    /** Takes back the proxy's unused credits and grants none until {@link #resume()}; deliveries already pushed are processed. */
    public void pause() {
        ProxyStream stream;
        synchronized (this) {
            paused = true;
            stream = current;
        }
        if (stream != null) {
            stream.withholdCredits();
        }
    }

    /** Grants credits again: what fills the window, then one per settled delivery. */
    public void resume() {
        ProxyStream stream;
        synchronized (this) {
            paused = false;
            stream = current;
        }
        if (stream != null) {
            stream.grantWithheld();
        }
    }

    /**
     * Stops taking deliveries, lets the listener finish what it holds (up to 10 s) so those acks
     * reach the proxy, then ends the stream; the proxy redelivers anything unacknowledged.
     */
    @Override
    public void close() {
        ProxyStream stream;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            stream = current;
        }
        timers.shutdownNow();
        listenerThreads.shutdown();
        try {
            if (!listenerThreads.awaitTermination(LISTENER_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("{}: listeners still busy after {}; the proxy will redeliver what they hold", this, LISTENER_GRACE);
                listenerThreads.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            listenerThreads.shutdownNow();
        }
        if (stream != null) {
            stream.finish();
        }
        channels.close();
        connected = false;
        metrics.remove(connectedGauge);
        log.info("{} stopped", this);
    }

    @Override
    public String toString() {
        return "ProxyConsumer[" + consumerId + ", " + spec.group() + "@" + spec.logicTopic() + "]";
    }

    /** The current stream's events; a stream that is no longer current is ignored (its deliveries come again). */
    private final class Events implements ProxyStream.Handler {
        @Override
        public void subscribed(ProxyStream stream, Subscribed subscribed) {
            synchronized (ProxyConsumer.this) {
                if (stream != current) {
                    return;
                }
                subscribedStream = stream;
                failures.reset();
            }
            connected = true;
            maxDeliveryAttempts = subscribed.getMaxDeliveryAttempts();
            log.info("{} subscribed through consumer proxy {} at {} (ack timeout {} ms, max attempts {})", ProxyConsumer.this,
                    subscribed.getProxyId(), stream.endpoint(), subscribed.getAckTimeoutMs(), subscribed.getMaxDeliveryAttempts());
        }

        @Override
        public void delivered(ProxyStream stream, Delivery delivery) {
            BoundMessage message = ProxyDeliveries.toBound(delivery);
            if (!tagFilter.matches(message.tag())) {
                stream.ack(delivery.getDeliveryId());
                return;
            }
            Runnable task = () -> process(stream, delivery, message);
            try {
                if (spec.subscription().ordered() && message.shardingKey().isPresent()) {
                    byKey.execute(delivery.getCluster() + '\n' + message.shardingKey().get(), task);
                } else {
                    listenerThreads.execute(task);
                }
            } catch (RejectedExecutionException closing) {
                // Closing: the proxy redelivers it to another consumer once this stream ends.
            }
        }

        @Override
        public void ended(ProxyStream stream, Status status) {
            Duration delay;
            int inARow;
            synchronized (ProxyConsumer.this) {
                if (stream != current || closed) {
                    return;
                }
                delay = failures.failed(status);
                inARow = failures.inARow();
                timers.schedule(ProxyConsumer.this::connect, delay.toMillis(), TimeUnit.MILLISECONDS);
            }
            connected = false;
            String problem = status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
            metrics.proxyStreamEnded(spec.logicTopic(), spec.group(), status.getCode().name());
            if (StreamFailures.isRefusal(status)) {
                log.error("{}: consumer proxy {} refused the subscription ({}); {}; nothing is consumed until this is fixed,"
                                + " retrying in {} ms", ProxyConsumer.this, stream.endpoint(), problem,
                        StreamFailures.remedy(status.getCode(), spec), delay.toMillis());
            } else if (inARow == 1 || inARow % 10 == 0) {
                log.warn("{}: stream to consumer proxy {} ended ({}), {} time(s) in a row; reconnecting in {} ms",
                        ProxyConsumer.this, stream.endpoint(), problem, inARow, delay.toMillis(), status.getCause());
            }
        }
    }
}
