package io.lanemq.core.observation;

import io.lanemq.api.ConsumeResult;
import io.lanemq.core.metrics.SdkMetrics;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The SDK's Micrometer observations, named in one place: {@value #SEND} around each send (every attempt and
 * failover included) and {@value #CONSUME} around each run of a listener. A tracing bridge on the application's
 * {@link io.micrometer.observation.ObservationRegistry} writes the send's trace context ({@code traceparent},
 * {@code tracestate}, baggage) into the message's properties and reads it back on the consumer, so the consumer's
 * span is a child of the producer's in any Micrometer Tracing backend; a meter handler makes each a timer.
 *
 * <p>Low-cardinality keys (tags on meters, always present): {@value #LOGIC_TOPIC}, {@value #CLUSTER} ({@value #NONE}
 * for a send no cluster accepted), {@value #OUTCOME}, and on consumes {@value #GROUP}. High-cardinality (spans only):
 * {@value #MESSAGE_ID}. The key names are {@link SdkMetrics}'s tag names, so a dashboard joins both. An application
 * replaces these conventions by registering a {@link io.micrometer.observation.GlobalObservationConvention} for
 * {@link SendContext} or {@link ConsumeContext}.
 */
public final class LaneMqObservations {
    /** The observation of one send, from the call until the broker's acknowledgement or the final failure. */
    public static final String SEND = "lanemq.send";
    /** The observation of one delivery handed to the application's listener. */
    public static final String CONSUME = "lanemq.consume";

    public static final String LOGIC_TOPIC = SdkMetrics.TAG_LOGIC_TOPIC;
    public static final String CLUSTER = SdkMetrics.TAG_CLUSTER;
    public static final String GROUP = SdkMetrics.TAG_GROUP;
    public static final String OUTCOME = SdkMetrics.TAG_OUTCOME;
    public static final String MESSAGE_ID = "message_id";

    /** {@value #OUTCOME} of a send the broker acknowledged, or of a listener that answered SUCCESS. */
    public static final String SUCCESS = "success";
    /** {@value #OUTCOME} of a send that failed (the observation carries the error). */
    public static final String FAILURE = "failure";
    /** {@value #OUTCOME} of a listener that answered RETRY_LATER (or null): the message comes again. */
    public static final String RETRY = "retry";
    /** {@value #OUTCOME} of a listener that answered DEAD_LETTER: the message goes to the dead-letter topic now. */
    public static final String DEAD_LETTER = "dead_letter";
    /** {@value #OUTCOME} of a listener that threw (the observation carries the error); the message comes again. */
    public static final String ERROR = "error";
    /** A key whose value is not known: the cluster of a send no cluster accepted. */
    public static final String NONE = "none";

    /** The default convention of {@value #SEND}. */
    public static final ObservationConvention<SendContext> SEND_CONVENTION = new SendConvention();
    /** The default convention of {@value #CONSUME}. */
    public static final ObservationConvention<ConsumeContext> CONSUME_CONVENTION = new ConsumeConvention();

    private LaneMqObservations() {
    }

    /** The {@value #OUTCOME} of a listener's answer. */
    static String outcome(ConsumeResult result) {
        if (result == ConsumeResult.SUCCESS) {
            return SUCCESS;
        }
        return result == ConsumeResult.DEAD_LETTER ? DEAD_LETTER : RETRY;
    }

    private static final class SendConvention implements ObservationConvention<SendContext> {
        @Override
        public String getName() {
            return SEND;
        }

        /** The span's name, as OpenTelemetry's messaging conventions put it: destination, then operation. */
        @Override
        public String getContextualName(SendContext context) {
            return context.logicTopic() + " send";
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(SendContext context) {
            return KeyValues.of(LOGIC_TOPIC, context.logicTopic(), CLUSTER, context.cluster().orElse(NONE),
                    OUTCOME, context.outcome());
        }

        @Override
        public KeyValues getHighCardinalityKeyValues(SendContext context) {
            return context.messageId().map(id -> KeyValues.of(MESSAGE_ID, id)).orElse(KeyValues.empty());
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof SendContext;
        }
    }

    private static final class ConsumeConvention implements ObservationConvention<ConsumeContext> {
        @Override
        public String getName() {
            return CONSUME;
        }

        @Override
        public String getContextualName(ConsumeContext context) {
            return context.message().logicTopic() + " process";
        }

        @Override
        public KeyValues getLowCardinalityKeyValues(ConsumeContext context) {
            return KeyValues.of(LOGIC_TOPIC, context.message().logicTopic(), GROUP, context.group(),
                    CLUSTER, context.message().cluster(), OUTCOME, context.outcome());
        }

        @Override
        public KeyValues getHighCardinalityKeyValues(ConsumeContext context) {
            return KeyValues.of(MESSAGE_ID, context.message().messageId());
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof ConsumeContext;
        }
    }
}
