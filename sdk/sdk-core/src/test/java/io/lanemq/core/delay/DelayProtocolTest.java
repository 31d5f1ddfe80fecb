package io.lanemq.core.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.InvalidMessageException;
import io.lanemq.api.Message;
import io.lanemq.api.spi.PhysicalMessage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DelayProtocolTest {

    @Test
    void idCarriesItsDueTimeAndIsUniquePerCall() {
        long due = Instant.parse("2027-03-01T10:15:30.123Z").toEpochMilli();

        String id = DelayProtocol.newId(due);

        assertThat(id).matches("[0-9a-f]{16}-[0-9a-f]{16}");
        assertThat(DelayProtocol.dueAtOf(id)).contains(due);
        assertThat(DelayProtocol.newId(due)).isNotEqualTo(id);
        assertThat(DelayProtocol.dueAtOf("0000018f2b3c4d5e-zz8b7c6d5e4f3a2b")).isEmpty();
        assertThat(DelayProtocol.dueAtOf("short")).isEmpty();
    }

    @Test
    void scheduleCarriesEverythingTheServerNeedsToDeliverTheOriginal() {
        Message message = Message.builder("order-paid").body("hi".getBytes(StandardCharsets.UTF_8)).keys("k1", "k2")
                .tag("paid").property("source", "checkout").shardingKey("customer-7")
                .deliverAt(Instant.ofEpochMilli(1_800_000_000_000L)).build();
        String id = DelayProtocol.newId(1_800_000_000_000L);

        PhysicalMessage schedule = DelayProtocol.schedule(message, message.properties(), "LANEMQ_DELAY", id);

        assertThat(schedule.topic()).isEqualTo("LANEMQ_DELAY");
        assertThat(schedule.body()).isEqualTo(message.body());
        assertThat(schedule.keys()).containsExactly("k1", "k2");
        assertThat(schedule.tag()).isEmpty();
        assertThat(schedule.shardingKey()).contains(id);
        assertThat(schedule.properties()).containsEntry("source", "checkout")
                .containsEntry(DelayProtocol.PROPERTY_KIND, DelayProtocol.KIND_SCHEDULE)
                .containsEntry(DelayProtocol.PROPERTY_ID, id)
                .containsEntry(DelayProtocol.PROPERTY_LOGIC_TOPIC, "order-paid")
                .containsEntry(DelayProtocol.PROPERTY_TAG, "paid")
                .containsEntry(DelayProtocol.PROPERTY_SHARDING_KEY, "customer-7");
    }

    @Test
    void cancelGoesToTheSameQueueAsItsSchedule() {
        String id = DelayProtocol.newId(1_800_000_000_000L);

        PhysicalMessage cancel = DelayProtocol.cancel("LANEMQ_DELAY", id);

        assertThat(cancel.shardingKey()).isEqualTo(Optional.of(id));
        assertThat(cancel.keys()).isEqualTo(List.of());
        assertThat(cancel.properties()).containsEntry(DelayProtocol.PROPERTY_KIND, DelayProtocol.KIND_CANCEL)
                .containsEntry(DelayProtocol.PROPERTY_ID, id);
    }

    @Test
    void ticketRoundTripsAndRejectsWhatIsNotOne() throws Exception {
        String id = DelayProtocol.newId(1_800_000_000_000L);
        DelayTicket ticket = new DelayTicket(id, "cluster-a");

        assertThat(DelayTicket.parse(ticket.toString())).isEqualTo(ticket);
        for (String bad : new String[] {null, "", id, id + "@", "nothex-0000000000000000@cluster-a", "@cluster-a"}) {
            assertThatThrownBy(() -> DelayTicket.parse(bad)).as(String.valueOf(bad))
                    .isInstanceOf(InvalidMessageException.class).hasMessageContaining("not a delay id");
        }
    }
}
