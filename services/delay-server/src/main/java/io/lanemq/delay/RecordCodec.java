package io.lanemq.delay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * The on-disk form of one record, version 1 (big-endian):
 * <pre>
 *  0  int   magic 0x4C4D5144 ("LMQD")  lets recovery find the next record after a corrupt one
 *  4  int   length of the whole record, magic to CRC inclusive
 *  8  byte  format version (1)
 *  9  int   ordinal: the record's index in its segment, the key of its mark
 * 13  long  due time, epoch ms (id, high half)
 * 21  long  nonce (id, low half)
 * 29  varint-prefixed UTF-8 topic, cluster; varint key count, keys; varint property count,
 *     name/value pairs; varint body length, body
 * -4  int   CRC32C of every byte before it
 * </pre>
 * The ordinal is stored rather than implied by position so that a corrupt record skipped in the
 * middle of a segment does not shift the marks of the records after it.
 */
final class RecordCodec {

    static final int MAGIC = 0x4C4D5144;
    static final byte VERSION = 1;
    static final int ORDINAL_OFFSET = 9;
    static final int DUE_OFFSET = 13;
    static final int NONCE_OFFSET = 21;
    static final int FIXED_HEADER = 29;
    static final int CRC_BYTES = 4;
    /** Header, five one-byte varints (an empty topic is not allowed, but a torn one must not pass), CRC. */
    static final int MIN_LENGTH = FIXED_HEADER + 5 + CRC_BYTES;
    /** What {@link #encode} adds to a record's strings and body, at most. */
    static final int OVERHEAD = FIXED_HEADER + CRC_BYTES;

    private RecordCodec() {
    }

    /**
     * Writes {@code record} into {@code dst} from position 0 with ordinal 0 and no CRC yet; leaves
     * the buffer flipped (position 0, limit = length). {@link #seal} finishes it.
     *
     * @return the buffer written: {@code dst}, or a larger one when it did not fit
     */
    static ByteBuffer encode(DelayedRecord record, ByteBuffer dst) {
        byte[] topic = utf8(record.topic());
        byte[] cluster = utf8(record.cluster());
        List<byte[]> keys = new ArrayList<>(record.keys().size());
        int size = FIXED_HEADER + CRC_BYTES + varStr(topic) + varStr(cluster) + varIntSize(record.keys().size());
        for (String key : record.keys()) {
            byte[] b = utf8(key);
            keys.add(b);
            size += varStr(b);
        }
        List<byte[]> props = new ArrayList<>(record.properties().size() * 2);
        size += varIntSize(record.properties().size());
        for (Map.Entry<String, String> p : record.properties().entrySet()) {
            byte[] name = utf8(p.getKey());
            byte[] value = utf8(p.getValue());
            props.add(name);
            props.add(value);
            size += varStr(name) + varStr(value);
        }
        byte[] body = record.bodyUnsafe();
        size += varIntSize(body.length) + body.length;

        ByteBuffer out = dst.capacity() >= size ? dst : ByteBuffer.allocate(Math.max(size, dst.capacity() * 2));
        out.clear();
        out.putInt(MAGIC).putInt(size).put(VERSION).putInt(0)
                .putLong(record.id().dueAtMillis()).putLong(record.id().nonce());
        putStr(out, topic);
        putStr(out, cluster);
        putVarInt(out, keys.size());
        keys.forEach(k -> putStr(out, k));
        putVarInt(out, record.properties().size());
        props.forEach(p -> putStr(out, p));
        putVarInt(out, body.length);
        out.put(body);
        out.putInt(0);
        out.flip();
        return out;
    }

    /** Stamps the ordinal and the CRC into an encoded record (position 0, limit = length). */
    static void seal(ByteBuffer encoded, int ordinal) {
        encoded.putInt(ORDINAL_OFFSET, ordinal);
        int crcAt = encoded.limit() - CRC_BYTES;
        CRC32C crc = new CRC32C();
        crc.update(encoded.duplicate().position(0).limit(crcAt));
        encoded.putInt(crcAt, (int) crc.getValue());
    }

    /** The ordinal, due time and nonce of the record at {@code pos}, read without checking it. */
    static int ordinal(ByteBuffer buf, int pos) {
        return buf.getInt(pos + ORDINAL_OFFSET);
    }

    static long due(ByteBuffer buf, int pos) {
        return buf.getLong(pos + DUE_OFFSET);
    }

    static long nonce(ByteBuffer buf, int pos) {
        return buf.getLong(pos + NONCE_OFFSET);
    }

    static int length(ByteBuffer buf, int pos) {
        return buf.getInt(pos + 4);
    }

    /**
     * Checks the record at {@code pos}, which must end at or before {@code limit}.
     *
     * @param scratch a duplicate of {@code buf} owned by the caller, used to feed the CRC
     * @return the record's length if it checks out, else -1 with the reason in {@code why[0]}
     */
    static int verify(ByteBuffer buf, ByteBuffer scratch, int pos, int limit, int maxLength, String[] why) {
        if (limit - pos < MIN_LENGTH) {
            why[0] = "only " + (limit - pos) + " bytes left, less than a record header";
            return -1;
        }
        if (buf.getInt(pos) != MAGIC) {
            why[0] = "bad magic";
            return -1;
        }
        int length = buf.getInt(pos + 4);
        if (length < MIN_LENGTH || length > maxLength) {
            why[0] = "implausible length " + length;
            return -1;
        }
        if (length > limit - pos) {
            why[0] = "length " + length + " runs past the end of the file (" + (limit - pos) + " bytes left)";
            return -1;
        }
        if (buf.get(pos + 8) != VERSION) {
            why[0] = "unknown format version " + buf.get(pos + 8);
            return -1;
        }
        int crcAt = pos + length - CRC_BYTES;
        CRC32C crc = new CRC32C();
        scratch.clear().position(pos).limit(crcAt);
        crc.update(scratch);
        if ((int) crc.getValue() != buf.getInt(crcAt)) {
            why[0] = "CRC32C mismatch";
            return -1;
        }
        return length;
    }

    /** Decodes the (verified) record at {@code pos}. */
    static DelayedRecord decode(ByteBuffer buf, int pos) {
        Cursor c = new Cursor(buf, pos + FIXED_HEADER);
        DelayId id = new DelayId(due(buf, pos), nonce(buf, pos));
        String topic = c.str();
        String cluster = c.str();
        int keyCount = c.varInt();
        List<String> keys = new ArrayList<>(keyCount);
        for (int i = 0; i < keyCount; i++) {
            keys.add(c.str());
        }
        int propCount = c.varInt();
        Map<String, String> props = new LinkedHashMap<>(Math.max(4, propCount * 2));
        for (int i = 0; i < propCount; i++) {
            props.put(c.str(), c.str());
        }
        byte[] body = c.bytes(c.varInt());
        return DelayedRecord.decoded(id, topic, cluster, keys, props, body);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static int varStr(byte[] b) {
        return varIntSize(b.length) + b.length;
    }

    private static void putStr(ByteBuffer out, byte[] b) {
        putVarInt(out, b.length);
        out.put(b);
    }

    static int varIntSize(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    static void putVarInt(ByteBuffer out, int v) {
        while ((v & ~0x7F) != 0) {
            out.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
    }

    /** Absolute reads, so a buffer shared between threads is never moved. */
    private static final class Cursor {
        private final ByteBuffer buf;
        private int pos;

        Cursor(ByteBuffer buf, int pos) {
            this.buf = buf;
            this.pos = pos;
        }

        int varInt() {
            int result = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                byte b = buf.get(pos++);
                result |= (b & 0x7F) << shift;
                if (b >= 0) {
                    return result;
                }
            }
            throw new IllegalStateException("varint longer than 5 bytes at " + (pos - 5));
        }

        byte[] bytes(int n) {
            byte[] b = new byte[n];
            buf.get(pos, b);
            pos += n;
            return b;
        }

        String str() {
            return new String(bytes(varInt()), StandardCharsets.UTF_8);
        }
    }
}
