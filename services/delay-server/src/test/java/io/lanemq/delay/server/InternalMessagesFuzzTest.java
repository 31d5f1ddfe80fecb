package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.core.delay.DelayProtocol;
import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.FetchedMessage;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.rocketmq.common.message.MessageAccessor;
import org.apache.rocketmq.common.message.MessageExt;
import org.junit.jupiter.api.Test;

/**
 * Whatever a producer puts on the internal topic (the delay server's only input besides its HTTP port: schedules and
 * cancel requests), {@link InternalMessages#parse} serves it or refuses it with an {@link IllegalArgumentException},
 * which the server counts and commits past; anything else would stop the queue behind the message. Seeded.
 */
class InternalMessagesFuzzTest {
    private static final long SEED = 20261125L;
    private static final int MESSAGES = 20_000;

    private enum Outcome { SCHEDULE, CANCEL, REFUSED }

    @Test
    void everyMessageIsServedOrRefusedNamingTheProblem() {
        Random random = new Random(SEED);
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        List<String> escaped = new ArrayList<>();
        for (int i = 0; i < MESSAGES; i++) {
            MessageExt m = message(random, i);
            Outcome outcome;
            try {
                outcome = InternalMessages.parse(FetchedMessage.of(m), "cluster-a") instanceof InternalMessages.Schedule
                        ? Outcome.SCHEDULE : Outcome.CANCEL;
            } catch (IllegalArgumentException refused) {
                assertThat(refused.getMessage()).as("a refusal says why").isNotBlank();
                outcome = Outcome.REFUSED;
            } catch (RuntimeException e) {
                escaped.add(e + " for properties " + m.getProperties());
                continue;
            }
            outcomes.merge(outcome, 1, Integer::sum);
        }
        System.out.printf("InternalMessagesFuzzTest: %d messages, %s%n", MESSAGES, outcomes);
        assertThat(escaped).as("exceptions other than a refusal").isEmpty();
        assertThat(outcomes).as("each kind of outcome was reached").containsKeys(Outcome.values());
    }

    /** Each field valid, missing, odd or garbage, independently (set as the wire delivers them, unchecked): valid ones let the later checks be reached too. */
    private static MessageExt message(Random random, int i) {
        MessageExt m = new MessageExt();
        m.setTopic("LANEMQ_DELAY");
        m.setQueueId(random.nextInt(8));
        m.setQueueOffset(i);
        m.setBody(bytes(random, random.nextInt(4) == 0 ? 0 : random.nextInt(2048)));
        pick(random, m, DelayProtocol.PROPERTY_KIND, DelayProtocol.KIND_SCHEDULE, DelayProtocol.KIND_CANCEL);
        pick(random, m, DelayProtocol.PROPERTY_ID, DelayId.random(1_900_000_000_000L + i).toString(),
                "zzzzzzzzzzzzzzzz-zzzzzzzzzzzzzzzz");
        pick(random, m, DelayProtocol.PROPERTY_LOGIC_TOPIC, "order-paid", "x".repeat(300));
        pick(random, m, DelayProtocol.PROPERTY_TAG, "paid", "a||b");
        pick(random, m, DelayProtocol.PROPERTY_SHARDING_KEY, "customer-7", "");
        for (int p = random.nextInt(4); p > 0; p--) {
            MessageAccessor.putProperty(m, text(random, 1 + random.nextInt(20)), text(random, 1 + random.nextInt(40)));
        }
        if (random.nextBoolean()) {
            m.setKeys(List.of(text(random, 1 + random.nextInt(30))));
        }
        return m;
    }

    private static void pick(Random random, MessageExt m, String property, String valid, String odd) {
        switch (random.nextInt(5)) {
            case 0, 1 -> MessageAccessor.putProperty(m, property, valid);
            case 2 -> MessageAccessor.putProperty(m, property, odd);
            case 3 -> MessageAccessor.putProperty(m, property, text(random, 1 + random.nextInt(64)));
            default -> { } // absent
        }
    }

    private static byte[] bytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    /** Printable and not: control characters, RocketMQ's own separators, non-ASCII. */
    private static String text(Random random, int length) {
        StringBuilder text = new StringBuilder(length);
        for (int c = 0; c < length; c++) {
            int kind = random.nextInt(10);
            text.append((char) (kind == 0 ? random.nextInt(32) : kind == 1 ? 0x80 + random.nextInt(0x700) : 33 + random.nextInt(94)));
        }
        return text.toString();
    }
}
