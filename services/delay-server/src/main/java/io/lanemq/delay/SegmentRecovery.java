package io.lanemq.delay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one segment at open: checks every record's CRC32C, cuts a torn tail, skips a corrupt
 * range in the middle by searching for the next record that checks out, and counts what is
 * still pending from the marks. Every dropped range is logged here, where it is handled, and
 * returned for the {@link RecoveryReport}.
 */
final class SegmentRecovery {

    private static final Logger log = LoggerFactory.getLogger(SegmentRecovery.class);

    private final FileChannelFactory files;
    private final int maxRecordBytes;

    SegmentRecovery(FileChannelFactory files, int maxRecordBytes) {
        this.files = files;
        this.maxRecordBytes = maxRecordBytes;
    }

    Segment.Recovered recover(Path dataPath, Path marksPath, long start, long end, List<DroppedRange> dropped)
            throws IOException {
        byte[] states = Files.exists(marksPath) ? Files.readAllBytes(marksPath) : new byte[0];
        long size;
        int maxOrdinal = -1;
        int records = 0;
        int unsettled = 0;
        List<Long> skips = new ArrayList<>();
        try (FileChannel ch = files.open(dataPath, EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE))) {
            long fileSize = ch.size();
            if (fileSize > Segment.MAX_BYTES) {
                throw new IOException(dataPath + " is " + fileSize + " bytes, more than a segment can be");
            }
            MappedByteBuffer v = fileSize == 0 ? null : ch.map(FileChannel.MapMode.READ_ONLY, 0, fileSize);
            int limit = (int) fileSize;
            int pos = 0;
            String[] why = new String[1];
            try {
                ByteBuffer scratch = v == null ? null : v.duplicate();
                while (pos < limit) {
                    int length = RecordCodec.verify(v, scratch, pos, limit, maxRecordBytes, why);
                    if (length > 0) {
                        int ordinal = RecordCodec.ordinal(v, pos);
                        maxOrdinal = Math.max(maxOrdinal, ordinal);
                        records++;
                        if (ordinal >= states.length || states[ordinal] == MarkFile.PENDING) {
                            unsettled++;
                        }
                        pos += length;
                        continue;
                    }
                    int next = nextValid(v, scratch, pos + 1, limit);
                    if (next < 0) {
                        String reason = why[0] + cut(ch, pos);
                        report(dropped, new DroppedRange(dataPath, start, end, pos, limit - pos,
                                DroppedRange.Kind.TORN_TAIL, reason));
                        limit = pos;
                        break;
                    }
                    report(dropped, new DroppedRange(dataPath, start, end, pos, next - pos,
                            DroppedRange.Kind.CORRUPT, why[0]));
                    skips.add((long) pos);
                    skips.add((long) next);
                    pos = next;
                }
            } finally {
                Unmapper.unmap(v);
            }
            size = limit;
        }
        int nextOrdinal = maxOrdinal + 1;
        long marksLength = states.length;
        if (states.length > nextOrdinal) {
            // Marks of records that did not survive must not apply to the records that reuse their ordinals.
            try (FileChannel ch = files.open(marksPath, EnumSet.of(StandardOpenOption.WRITE))) {
                ch.truncate(nextOrdinal);
                marksLength = nextOrdinal;
            }
        }
        return new Segment.Recovered(size, nextOrdinal, records, unsettled, marksLength, skips.stream().mapToLong(Long::longValue).toArray());
    }

    private int nextValid(ByteBuffer v, ByteBuffer scratch, int from, int limit) {
        String[] ignored = new String[1];
        for (int p = from; p + RecordCodec.MIN_LENGTH <= limit; p++) {
            if (v.getInt(p) == RecordCodec.MAGIC && RecordCodec.verify(v, scratch, p, limit, maxRecordBytes, ignored) > 0) {
                return p;
            }
        }
        return -1;
    }

    private static String cut(FileChannel ch, int at) {
        try {
            ch.truncate(at);
            return "; truncated";
        } catch (IOException e) {
            // Appends track the valid end themselves and overwrite from there, so an uncut tail is harmless.
            return "; could not truncate (" + e + "), appends will overwrite it";
        }
    }

    private static void report(List<DroppedRange> dropped, DroppedRange range) {
        dropped.add(range);
        log.warn("Dropped {} bytes at offset {} of {} ({}, bucket [{}, {})): {}; re-read that bucket from the "
                + "internal topic", range.length(), range.offset(), range.segment(), range.kind(),
                range.bucketStartMillis(), range.bucketEndMillis(), range.reason());
    }
}
