package io.lanemq.delay.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.delay.DelayId;
import io.lanemq.rocketmq.QueueRef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerCheckpointTest {

    private static final QueueRef Q0 = new QueueRef("LANEMQ_DELAY", "broker-a", 0);
    private static final QueueRef Q1 = new QueueRef("LANEMQ_DELAY", "broker-b", 7);

    @TempDir
    Path dir;

    private record Entry(long offset, long due, long nonce) {
    }

    @Test
    void whatIsWrittenIsReadBackAndTheFileIsUsedOnce() throws IOException {
        List<Entry> q0 = new ArrayList<>();
        long offset = 1_000;
        for (int i = 0; i < 10_000; i++) { // more than one block, gaps of many sizes
            q0.add(new Entry(offset, 1_700_000_000_000L + i, -i * 31L));
            offset += 1 + (i % 300) * (i % 7 == 0 ? 1_000 : 1);
        }
        long q0Next = q0.get(q0.size() - 1).offset() + 5;
        DelayId awaiting = DelayId.random(1_800_000_000_000L);
        try (LedgerCheckpoint.Writer w = LedgerCheckpoint.writer(dir, "cluster-a", 1234L)) {
            w.beginQueue(Q0, 1_000, q0Next, new long[] {1_000, 4_000}, new long[] {50, 1_050});
            for (Entry e : q0) {
                w.held(e.offset(), e.due(), e.nonce());
            }
            w.endQueue();
            w.beginQueue(Q1, 0, 0, new long[0], new long[0]); // nothing read yet
            w.endQueue();
            w.awaiting(Q0, awaiting);
            long bytes = w.commit();
            assertThat(bytes).isBetween(17L * q0.size(), 18L * q0.size() + 500);
            assertThat(w.heldWritten()).isEqualTo(q0.size());
        }
        assertThat(Files.exists(dir.resolve(LedgerCheckpoint.FILE_NAME + ".tmp"))).isFalse();

        try (LedgerCheckpoint.Loaded loaded = LedgerCheckpoint.open(dir, "cluster-a")) {
            assertThat(Files.exists(dir.resolve(LedgerCheckpoint.FILE_NAME))).as("deleted once opened").isFalse();
            assertThat(loaded.writtenAtMillis()).isEqualTo(1234L);
            assertThat(loaded.sections()).containsOnlyKeys(Q0, Q1);
            LedgerCheckpoint.Section s0 = loaded.take(Q0);
            assertThat(loaded.take(Q0)).as("a section is used once").isNull();
            assertThat(s0.committed()).isEqualTo(1_000);
            assertThat(s0.nextRead()).isEqualTo(q0Next);
            assertThat(s0.readOffsets()).containsExactly(1_000, 4_000);
            assertThat(s0.readMillis()).containsExactly(50, 1_050);
            assertThat(s0.heldCount()).isEqualTo(q0.size());
            assertThat(loaded.awaiting(Q0)).containsExactly(awaiting);
            assertThat(loaded.awaiting(Q1)).isEmpty();
            // Q1 first: sections are read by position, in any order.
            List<Entry> q1Back = new ArrayList<>();
            loaded.readHeld(loaded.take(Q1), (o, d, n) -> q1Back.add(new Entry(o, d, n)));
            assertThat(q1Back).isEmpty();
            List<Entry> back = new ArrayList<>();
            loaded.readHeld(s0, (o, d, n) -> back.add(new Entry(o, d, n)));
            assertThat(back).isEqualTo(q0);
        }
        assertThat(LedgerCheckpoint.open(dir, "cluster-a")).isNull();
    }

    @Test
    void aFlippedByteIsRejectedByItsCrc() throws IOException {
        writeSmall();
        Path file = dir.resolve(LedgerCheckpoint.FILE_NAME);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 20] ^= 0x10; // inside the last held entry's nonce: structure intact, CRC not
        Files.write(file, bytes);
        assertThatThrownBy(() -> LedgerCheckpoint.open(dir, "cluster-a"))
                .isInstanceOf(LedgerCheckpoint.InvalidCheckpointException.class)
                .hasMessageContaining("CRC mismatch").hasMessageContaining(file.toString());
        assertThat(Files.exists(file)).isFalse();
        assertThat(Files.exists(dir.resolve(LedgerCheckpoint.FILE_NAME + LedgerCheckpoint.REJECTED_SUFFIX))).isTrue();
        assertThat(LedgerCheckpoint.open(dir, "cluster-a")).as("rejected once, then gone").isNull();
    }

    @Test
    void aTruncatedFileIsRejected() throws IOException {
        writeSmall();
        Path file = dir.resolve(LedgerCheckpoint.FILE_NAME);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 7));
        assertThatThrownBy(() -> LedgerCheckpoint.open(dir, "cluster-a"))
                .isInstanceOf(LedgerCheckpoint.InvalidCheckpointException.class).hasMessageContaining("truncated");
    }

    @Test
    void anotherClusterOrVersionIsRejected() throws IOException {
        writeSmall();
        assertThatThrownBy(() -> LedgerCheckpoint.open(dir, "cluster-b"))
                .isInstanceOf(LedgerCheckpoint.InvalidCheckpointException.class)
                .hasMessageContaining("written for cluster 'cluster-a', not 'cluster-b'");

        writeSmall();
        Path file = dir.resolve(LedgerCheckpoint.FILE_NAME);
        byte[] bytes = Files.readAllBytes(file);
        bytes[7] = 9; // version 1 -> 9
        Files.write(file, bytes);
        assertThatThrownBy(() -> LedgerCheckpoint.open(dir, "cluster-a"))
                .isInstanceOf(LedgerCheckpoint.InvalidCheckpointException.class)
                .hasMessageContaining("version 9, this server reads 1");
    }

    @Test
    void anUncommittedWriteLeavesThePreviousCheckpoint() throws IOException {
        writeSmall();
        try (LedgerCheckpoint.Writer w = LedgerCheckpoint.writer(dir, "cluster-a", 99L)) {
            w.beginQueue(Q1, 0, 10, new long[0], new long[0]);
            w.held(3, 1, 1);
            // no commit: a crash or an error while writing
        }
        assertThat(Files.exists(dir.resolve(LedgerCheckpoint.FILE_NAME + ".tmp"))).isFalse();
        try (LedgerCheckpoint.Loaded loaded = LedgerCheckpoint.open(dir, "cluster-a")) {
            assertThat(loaded.writtenAtMillis()).isEqualTo(7L);
        }
    }

    @Test
    void offsetsMustIncreaseAndStayBelowNextRead() throws IOException {
        try (LedgerCheckpoint.Writer w = LedgerCheckpoint.writer(dir, "cluster-a", 1L)) {
            w.beginQueue(Q0, 0, 10, new long[0], new long[0]);
            w.held(5, 1, 1);
            assertThatThrownBy(() -> w.held(5, 1, 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> w.held(4, 1, 1)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> w.held(10, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private void writeSmall() throws IOException {
        try (LedgerCheckpoint.Writer w = LedgerCheckpoint.writer(dir, "cluster-a", 7L)) {
            w.beginQueue(Q0, 10, 20, new long[] {10}, new long[] {5});
            w.held(12, 100, 200);
            w.held(15, 101, 201);
            w.endQueue();
            w.commit();
        }
    }
}
