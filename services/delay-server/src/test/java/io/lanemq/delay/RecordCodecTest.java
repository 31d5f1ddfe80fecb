package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordCodecTest {

    private final DelayedRecord record = DelayedRecord.builder()
            .id(new DelayId(1_800_000_012_345L, -42))
            .target("订单_paid", "cluster-b")
            .keys(List.of("k1", "", "k3"))
            .property("lane", "A.X")
            .property("empty", "")
            .body("héllo".getBytes(StandardCharsets.UTF_8))
            .build();

    @Test
    void roundTripsEveryField() {
        ByteBuffer buf = RecordCodec.encode(record, ByteBuffer.allocate(8));
        RecordCodec.seal(buf, 77);
        String[] why = new String[1];
        assertThat(RecordCodec.verify(buf, buf.duplicate(), 0, buf.limit(), 1 << 20, why)).isEqualTo(buf.limit());
        assertThat(RecordCodec.ordinal(buf, 0)).isEqualTo(77);
        DelayedRecord decoded = RecordCodec.decode(buf, 0);
        assertThat(decoded).isEqualTo(record);
        assertThat(decoded.properties()).containsExactly(
                java.util.Map.entry("lane", "A.X"), java.util.Map.entry("empty", ""));
    }

    @Test
    void overheadIsSmall() {
        DelayedRecord plain = DelayedRecord.builder().dueAt(1).target("t", "").body(new byte[300]).build();
        ByteBuffer buf = RecordCodec.encode(plain, ByteBuffer.allocate(1024));
        assertThat(buf.limit()).isEqualTo(300 + RecordCodec.OVERHEAD + 1 + 1 + 1 + 1 + 1 + 2);
    }

    @Test
    void anyFlippedBitFailsTheCheck() {
        ByteBuffer buf = RecordCodec.encode(record, ByteBuffer.allocate(8));
        RecordCodec.seal(buf, 1);
        String[] why = new String[1];
        for (int i = 0; i < buf.limit(); i++) {
            for (int bit = 0; bit < 8; bit++) {
                ByteBuffer copy = ByteBuffer.allocate(buf.limit()).put(buf.duplicate());
                copy.put(i, (byte) (copy.get(i) ^ (1 << bit)));
                assertThat(RecordCodec.verify(copy, copy.duplicate(), 0, copy.limit(), 1 << 20, why))
                        .as("byte %d bit %d", i, bit).isNegative();
            }
        }
    }

    @Test
    void aTruncatedRecordFailsTheCheck() {
        ByteBuffer buf = RecordCodec.encode(record, ByteBuffer.allocate(8));
        RecordCodec.seal(buf, 1);
        String[] why = new String[1];
        assertThat(RecordCodec.verify(buf, buf.duplicate(), 0, buf.limit() - 1, 1 << 20, why)).isNegative();
        assertThat(why[0]).contains("past the end");
    }

    @Test
    void delayIdTextRoundTrips() {
        DelayId id = new DelayId(1_800_000_012_345L, -42);
        assertThat(id.toString()).hasSize(33);
        assertThat(DelayId.parse(id.toString())).isEqualTo(id);
    }
}
