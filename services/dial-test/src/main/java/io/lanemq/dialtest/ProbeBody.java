package io.lanemq.dialtest;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The body of a probe message: everything a consumer needs to ack it to the producer that sent it, and what the
 * report needs to attribute it. A compact big-endian binary layout, padded with zeros to the configured body size:
 *
 * <pre>
 * offset size  field
 *      0    4  magic 'LMQP' (0x4C4D5150)
 *      4    1  version (1)
 *      5    1  kind code ({@link ProbeKind#code()})
 *      6    1  flags: bit 0 = tracked (the consumer acks only tracked probes)
 *      7    1  ack host length H, then H bytes of UTF-8 (an IP literal or a host name)
 *    8+H    2  ack port (unsigned)
 *   10+H    8  run id
 *   18+H    8  sequence (unique within the run)
 *   26+H    8  send time, epoch milliseconds (the producer's wall clock)
 *   34+H    4  delay in milliseconds (unsigned; 0 unless delayed)
 *   38+H    1  cluster name length C, then C bytes of UTF-8
 * 39+H+C    1  broker name length B, then B bytes of UTF-8
 *          ..  zero padding up to the configured body size
 * </pre>
 *
 * A body shorter than the configured size would need no padding; one whose header is longer than the size is
 * sent unpadded.
 */
public record ProbeBody(String ackHost, int ackPort, long runId, long sequence, ProbeKind kind, boolean tracked,
                        long sendEpochMillis, long delayMillis, String cluster, String broker) {

    static final int MAGIC = 0x4C4D5150;
    static final byte VERSION = 1;
    private static final int FLAG_TRACKED = 1;
    private static final int MAX_NAME_BYTES = 255;
    private static final long MAX_DELAY_MILLIS = 0xFFFF_FFFFL;
    /** The header without the three variable-length names. */
    static final int FIXED_BYTES = 4 + 1 + 1 + 1 + 1 + 2 + 8 + 8 + 8 + 4 + 1 + 1;

    public ProbeBody {
        Objects.requireNonNull(kind, "kind");
        checkName("ackHost", ackHost);
        checkName("cluster", cluster);
        checkName("broker", broker);
        if (ackPort < 1 || ackPort > 0xFFFF) {
            throw new IllegalArgumentException("ackPort must be in [1, 65535]: " + ackPort);
        }
        if (delayMillis < 0 || delayMillis > MAX_DELAY_MILLIS) {
            throw new IllegalArgumentException("delayMillis must be in [0, " + MAX_DELAY_MILLIS + "]: " + delayMillis);
        }
    }

    /** Encodes this body, zero-padded to {@code size} bytes when the header is shorter. */
    public byte[] encode(int size) {
        byte[] host = ackHost.getBytes(StandardCharsets.UTF_8);
        byte[] clusterBytes = cluster.getBytes(StandardCharsets.UTF_8);
        byte[] brokerBytes = broker.getBytes(StandardCharsets.UTF_8);
        int header = FIXED_BYTES + host.length + clusterBytes.length + brokerBytes.length;
        ByteBuffer buffer = ByteBuffer.allocate(Math.max(size, header));
        buffer.putInt(MAGIC).put(VERSION).put(kind.code()).put((byte) (tracked ? FLAG_TRACKED : 0));
        buffer.put((byte) host.length).put(host).putShort((short) ackPort);
        buffer.putLong(runId).putLong(sequence).putLong(sendEpochMillis).putInt((int) delayMillis);
        buffer.put((byte) clusterBytes.length).put(clusterBytes);
        buffer.put((byte) brokerBytes.length).put(brokerBytes);
        return buffer.array();
    }

    /** Whether {@code body} starts like a probe body of any version (cheap; for telling probes from strangers). */
    public static boolean looksLikeProbe(byte[] body) {
        return body != null && body.length >= 4 && ByteBuffer.wrap(body).getInt() == MAGIC;
    }

    /**
     * Decodes a body written by {@link #encode(int)}; padding is ignored.
     *
     * @throws IllegalArgumentException saying what is wrong, for anything that is not a version-1 probe body
     */
    public static ProbeBody decode(byte[] body) {
        if (body == null || body.length < FIXED_BYTES) {
            throw new IllegalArgumentException("probe body too short: " + (body == null ? 0 : body.length) + " bytes");
        }
        ByteBuffer buffer = ByteBuffer.wrap(body);
        if (buffer.getInt() != MAGIC) {
            throw new IllegalArgumentException("not a probe body (bad magic)");
        }
        byte version = buffer.get();
        if (version != VERSION) {
            throw new IllegalArgumentException("unsupported probe body version " + version);
        }
        ProbeKind kind = ProbeKind.ofCode(buffer.get());
        if (kind == null) {
            throw new IllegalArgumentException("unknown probe kind code " + body[5]);
        }
        boolean tracked = (buffer.get() & FLAG_TRACKED) != 0;
        try {
            String host = readName(buffer);
            int port = Short.toUnsignedInt(buffer.getShort());
            long runId = buffer.getLong();
            long sequence = buffer.getLong();
            long sendEpochMillis = buffer.getLong();
            long delayMillis = Integer.toUnsignedLong(buffer.getInt());
            String cluster = readName(buffer);
            String broker = readName(buffer);
            return new ProbeBody(host, port, runId, sequence, kind, tracked, sendEpochMillis, delayMillis, cluster,
                broker);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("probe body truncated at byte " + buffer.position(), e);
        }
    }

    private static String readName(ByteBuffer buffer) {
        int length = Byte.toUnsignedInt(buffer.get());
        byte[] bytes = new byte[length];
        buffer.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void checkName(String field, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException(field + " must not be empty");
        }
        if (value.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException(field + " must be at most " + MAX_NAME_BYTES + " bytes of UTF-8: " + value);
        }
    }
}
