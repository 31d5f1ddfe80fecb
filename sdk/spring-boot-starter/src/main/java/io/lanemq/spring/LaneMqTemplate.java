package io.lanemq.spring;

import io.lanemq.api.CancelOutcome;
import io.lanemq.api.LocalTransaction;
import io.lanemq.api.Message;
import io.lanemq.api.MessagingException;
import io.lanemq.api.Producer;
import io.lanemq.api.ReceivedMessage;
import io.lanemq.api.SendResult;
import io.lanemq.core.convert.MessageConversion;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

/**
 * Sends application objects to logic topics: converts the payload with the application's {@link MessageConversion}
 * (JSON by default; {@code byte[]} and {@code String} as they are), then sends through the application's
 * {@link Producer}. The auto-configured bean; thread-safe. Every send is stamped with the calling thread's lane and
 * stress-test marks, as the producer's are.
 *
 * <pre>{@code
 * template.convertAndSend("order-paid", new OrderPaid(42));
 * template.convertAndSend("order-paid", paid, message -> message.keys("order-42").shardingKey("customer-7"));
 * SendResult reminder = template.sendDelayed("payment-reminder", reminderOf(order), Duration.ofMinutes(30));
 * template.cancelDelayed(reminder.delayId().orElseThrow());
 * template.sendInTransaction("order-paid", paid, prepared -> { orders.markPaid(42); return TransactionResolution.COMMIT; });
 * }</pre>
 *
 * <p>Failures are the producer's: {@link io.lanemq.api.UnknownTopicException} and
 * {@link io.lanemq.api.InvalidMessageException} when nothing was sent, {@link io.lanemq.api.SendFailedException} when
 * no cluster acknowledged in time; a payload its converter cannot write is a
 * {@link io.lanemq.core.convert.MessageConversionException}, before anything is sent.
 */
public class LaneMqTemplate {
    private final Producer producer;
    private final MessageConversion conversion;

    public LaneMqTemplate(Producer producer, MessageConversion conversion) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.conversion = Objects.requireNonNull(conversion, "conversion");
    }

    /** The producer it sends through. */
    public Producer producer() {
        return producer;
    }

    /** The conversion it writes payloads with. */
    public MessageConversion conversion() {
        return conversion;
    }

    /** Sends a message as built, waiting for the broker's acknowledgement. */
    public SendResult send(Message message) throws MessagingException {
        return producer.send(message);
    }

    /** Sends without blocking; the future completes on an SDK thread. */
    public CompletableFuture<SendResult> sendAsync(Message message) {
        return producer.sendAsync(message);
    }

    /** Converts {@code payload} and sends it to {@code logicTopic}. */
    public SendResult convertAndSend(String logicTopic, Object payload) throws MessagingException {
        return producer.send(toMessage(logicTopic, payload).build());
    }

    /**
     * Converts {@code payload} and sends it with what {@code options} sets on the message: keys, tag, sharding key,
     * user properties, a due time.
     */
    public SendResult convertAndSend(String logicTopic, Object payload, Consumer<Message.Builder> options)
            throws MessagingException {
        return producer.send(message(logicTopic, payload, options));
    }

    /** As {@link #convertAndSend(String, Object, Consumer)}, without blocking; a conversion failure fails the future. */
    public CompletableFuture<SendResult> convertAndSendAsync(String logicTopic, Object payload, Consumer<Message.Builder> options) {
        Message message;
        try {
            message = message(logicTopic, payload, options);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return producer.sendAsync(message);
    }

    /** Converts {@code payload} and sends it to be delivered {@code delay} from now; cancel it with {@link #cancelDelayed}. */
    public SendResult sendDelayed(String logicTopic, Object payload, Duration delay) throws MessagingException {
        return sendDelayed(logicTopic, payload, delay, message -> { });
    }

    /** As {@link #sendDelayed(String, Object, Duration)}, with keys and the like from {@code options}. */
    public SendResult sendDelayed(String logicTopic, Object payload, Duration delay, Consumer<Message.Builder> options)
            throws MessagingException {
        Objects.requireNonNull(delay, "delay");
        return producer.send(message(logicTopic, payload, options.andThen(builder -> builder.deliverAfter(delay))));
    }

    /** Cancels a delayed message before it is due; see {@link Producer#cancelDelayed(String)}. */
    public CancelOutcome cancelDelayed(String delayId) throws MessagingException {
        return producer.cancelDelayed(delayId);
    }

    /**
     * Converts {@code payload}, stores it prepared, runs {@code localTransaction}, and commits or rolls back by its
     * answer; needs a {@link io.lanemq.api.TransactionChecker} bean (see {@link Producer#sendInTransaction}).
     */
    public SendResult sendInTransaction(String logicTopic, Object payload, LocalTransaction localTransaction)
            throws MessagingException {
        return sendInTransaction(toMessage(logicTopic, payload).build(), localTransaction);
    }

    /** Sends a message as built in a transaction. */
    public SendResult sendInTransaction(Message message, LocalTransaction localTransaction) throws MessagingException {
        return producer.sendInTransaction(message, localTransaction);
    }

    /**
     * Sends several messages in one call and waits for all of them: one outcome per message, in the order given. The
     * sends go out together (asynchronously, so the producer gathers them into batches per queue where its platform
     * configuration allows) and fail one by one: a failed message does not stop the others.
     */
    public List<SendOutcome> sendBatch(List<Message> messages) {
        List<CompletableFuture<SendResult>> sends = new ArrayList<>(messages.size());
        for (Message message : messages) {
            sends.add(producer.sendAsync(Objects.requireNonNull(message, "a message of the batch is null")));
        }
        List<SendOutcome> outcomes = new ArrayList<>(sends.size());
        for (int i = 0; i < sends.size(); i++) {
            try {
                outcomes.add(new SendOutcome(messages.get(i), Optional.of(sends.get(i).join()), Optional.empty()));
            } catch (CompletionException e) {
                outcomes.add(new SendOutcome(messages.get(i), Optional.empty(), Optional.of(e.getCause() == null ? e : e.getCause())));
            }
        }
        return outcomes;
    }

    /** A message builder for {@code payload}, converted, to add keys and the like to before {@link #send}. */
    public Message.Builder toMessage(String logicTopic, Object payload) {
        return conversion.toMessage(logicTopic, payload);
    }

    /** The payload of a received message as a {@code type}. */
    public <T> T fromMessage(ReceivedMessage message, Class<T> type) {
        return conversion.fromMessage(message, type);
    }

    private Message message(String logicTopic, Object payload, Consumer<Message.Builder> options) {
        Objects.requireNonNull(options, "options");
        Message.Builder builder = toMessage(logicTopic, payload);
        options.accept(builder);
        return builder.build();
    }
}
