package io.lanemq.testkit.tracing;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;

/**
 * A tracer as a Spring Boot application with Micrometer Tracing has one: Brave through Micrometer's bridge, 128-bit ids, W3C
 * trace context ({@code traceparent}), every span sampled, and an {@link ObservationRegistry} whose handlers turn
 * observations into spans, propagating on sends and receives. Finished spans are kept in memory for assertions.
 * Needs {@code micrometer-tracing-bridge-brave} on the test class path (an optional dependency of the testkit).
 */
public final class RecordingTracing implements AutoCloseable {
    private final Queue<MutableSpan> finished = new ConcurrentLinkedQueue<>();
    private final Tracing tracing;
    private final Tracer tracer;
    private final ObservationRegistry observations = ObservationRegistry.create();

    public RecordingTracing() {
        BraveBaggageManager baggage = new BraveBaggageManager();
        ThreadLocalCurrentTraceContext current = ThreadLocalCurrentTraceContext.newBuilder().build();
        this.tracing = Tracing.newBuilder().currentTraceContext(current).supportsJoin(false).traceId128Bit(true)
                .propagationFactory(new W3CPropagation(baggage, List.of()))
                .addSpanHandler(new SpanHandler() {
                    @Override
                    public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                        if (cause == Cause.FINISHED) {
                            finished.add(span);
                        }
                        return true;
                    }
                }).build();
        this.tracer = new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(current), baggage);
        Propagator propagator = new BravePropagator(tracing);
        observations.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
    }

    /** The registry to hand to the code under test. */
    public ObservationRegistry observations() {
        return observations;
    }

    public Tracer tracer() {
        return tracer;
    }

    /** Every span finished so far, in the order they finished. */
    public List<MutableSpan> spans() {
        return List.copyOf(finished);
    }

    /** The first finished span named {@code name} that matches {@code filter}. */
    public Optional<MutableSpan> span(String name, Predicate<MutableSpan> filter) {
        return finished.stream().filter(s -> name.equals(s.name()) && filter.test(s)).findFirst();
    }

    @Override
    public void close() {
        tracing.close();
    }
}
