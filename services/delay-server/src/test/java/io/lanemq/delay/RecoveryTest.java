package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecoveryTest {

    @TempDir
    Path dir;
    private EngineFixture f;
    private long t0;
    private final List<DelayedRecord> records = new ArrayList<>();

    @BeforeEach
    void open() throws Exception {
        f = new EngineFixture(dir);
        t0 = f.clock.millis();
        for (int i = 0; i < 10; i++) {
            records.add(f.schedule(t0 + 3_600_000 + i, "record-" + i)); // one bucket, an hour ahead
        }
        records.add(f.schedule(t0 + 7_200_000, "another bucket"));
        f.engine.close();
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void aCorruptLastRecordIsCutAndReportedAndTheRestIsIntact() throws Exception {
        Path segment = segmentOf(t0 + 3_600_000);
        List<Integer> offsets = offsets(segment);
        int last = offsets.get(9);
        long sizeBefore = Files.size(segment);
        flipByte(segment, last + 40);

        f.crashAndRestart();

        RecoveryReport report = f.engine.recoveryReport();
        assertThat(report.dropped()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo(DroppedRange.Kind.TORN_TAIL);
            assertThat(d.segment()).isEqualTo(segment);
            assertThat(d.offset()).isEqualTo(last);
            assertThat(d.length()).isEqualTo(sizeBefore - last);
            assertThat(d.bucketStartMillis()).isEqualTo(t0 + 3_600_000);
            assertThat(d.bucketEndMillis()).isEqualTo(t0 + 3_660_000);
            assertThat(d.reason()).contains("CRC32C mismatch").contains("truncated");
        });
        assertThat(Files.size(segment)).isEqualTo(last);
        assertThat(report.pending()).isEqualTo(10);

        f.advanceTo(t0 + 7_200_000);
        assertThat(f.sink.deliveries()).extracting(RecordingSink.Delivery::record)
                .containsExactlyElementsOf(withoutIndex(9));
    }

    @Test
    void aTornTailIsCutAndTheSegmentTakesNewRecordsAfterIt() throws Exception {
        Path segment = segmentOf(t0 + 3_600_000);
        int last = offsets(segment).get(9);
        try (RandomAccessFile raf = new RandomAccessFile(segment.toFile(), "rw")) {
            raf.setLength(last + 20); // the machine died mid-write
        }
        // A mark for the torn record reached the disk although the record did not.
        try (RandomAccessFile raf = new RandomAccessFile(segment.resolveSibling((t0 + 3_600_000) + ".mark").toFile(), "rw")) {
            raf.seek(9);
            raf.write(MarkFile.DELIVERED);
        }

        f.crashAndRestart();

        assertThat(f.engine.recoveryReport().dropped()).singleElement()
                .satisfies(d -> assertThat(d.reason()).contains("only 20 bytes left"));
        DelayedRecord reused = f.schedule(t0 + 3_600_500, "takes the torn record's ordinal");
        f.restart();
        assertThat(f.engine.recoveryReport().clean()).isTrue();
        f.advanceTo(t0 + 7_200_000);
        List<DelayedRecord> expected = new ArrayList<>(withoutIndex(9));
        expected.add(expected.size() - 1, reused);
        assertThat(f.sink.deliveries()).extracting(RecordingSink.Delivery::record).containsExactlyElementsOf(expected);
    }

    @Test
    void aCorruptRecordInTheMiddleIsSkippedAndReportedAndTheRecordsAfterItSurvive() throws Exception {
        Path segment = segmentOf(t0 + 3_600_000);
        List<Integer> offsets = offsets(segment);
        flipByte(segment, offsets.get(4) + 5); // inside the length field: the walk cannot step over it

        f.crashAndRestart();

        assertThat(f.engine.recoveryReport().dropped()).singleElement().satisfies(d -> {
            assertThat(d.kind()).isEqualTo(DroppedRange.Kind.CORRUPT);
            assertThat(d.offset()).isEqualTo((long) offsets.get(4));
            assertThat(d.length()).isEqualTo((long) (offsets.get(5) - offsets.get(4)));
        });
        DelayedRecord appended = f.schedule(t0 + 3_600_020, "after recovery");
        f.restart();
        assertThat(f.engine.recoveryReport().dropped()).hasSize(1); // still there, reported again
        f.advanceTo(t0 + 7_200_000);
        List<DelayedRecord> expected = new ArrayList<>(withoutIndex(4));
        expected.add(expected.size() - 1, appended);
        assertThat(f.sink.deliveries()).extracting(RecordingSink.Delivery::record).containsExactlyElementsOf(expected);
        assertThat(f.engine.cancel(records.get(5).id())).isEqualTo(CancelResult.ALREADY_DELIVERED);
    }

    private List<DelayedRecord> withoutIndex(int skip) {
        List<DelayedRecord> out = new ArrayList<>(records);
        out.remove(skip);
        return out;
    }

    private Path segmentOf(long bucketStart) throws Exception {
        try (var s = Files.walk(dir)) {
            return s.filter(p -> p.getFileName().toString().equals(bucketStart + ".seg")).findFirst().orElseThrow();
        }
    }

    private static List<Integer> offsets(Path segment) throws Exception {
        ByteBuffer buf = ByteBuffer.wrap(Files.readAllBytes(segment));
        List<Integer> offsets = new ArrayList<>();
        for (int pos = 0; pos < buf.limit(); pos += RecordCodec.length(buf, pos)) {
            offsets.add(pos);
        }
        return offsets;
    }

    private static void flipByte(Path file, long at) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(at);
            int b = raf.read();
            raf.seek(at);
            raf.write(b ^ 0x5A);
        }
    }
}
