package io.lanemq.dialtest;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The ack channel's wire format: length-prefixed frames authenticated with HMAC-SHA256 under a shared secret.
 *
 * <pre>
 * offset size  field (big-endian)
 *      0    4  length L of what follows (payload + MAC); frames with L outside [{@value #MIN_LENGTH},
 *              {@value #MAX_LENGTH}] are rejected before anything is read or allocated
 *      4    2  magic 'LA' (0x4C41)
 *      6    1  version (1)
 *      7    1  type (1 = ack)
 *      8    8  run id
 *     16    8  sequence
 *     24    1  kind code
 *     25    8  received time, epoch milliseconds
 *     33    2  redeliveries (unsigned)
 *     35   32  HMAC-SHA256(secret, bytes 0..34): the length prefix is authenticated too
 * </pre>
 *
 * The MAC is checked (in constant time) before any payload field is interpreted. A hand-written format because
 * the seed describes exactly this and the payload is 31 bytes; the ack channel carries nothing else.
 *
 * <p>Not thread-safe (it holds a {@link Mac}): one codec per connection or thread.
 */
final class AckCodec {

    static final short MAGIC = 0x4C41;
    static final byte VERSION = 1;
    static final byte TYPE_ACK = 1;
    static final int MAC_BYTES = 32;
    static final int PAYLOAD_V1_BYTES = 2 + 1 + 1 + 8 + 8 + 1 + 8 + 2;
    /** Shortest acceptable length prefix: a MAC and the magic, version and type. */
    static final int MIN_LENGTH = MAC_BYTES + 4;
    /** Longest acceptable length prefix: room for later versions, far too little to hurt. */
    static final int MAX_LENGTH = 1024;
    static final int MIN_SECRET_BYTES = 16;
    private static final String ALGORITHM = "HmacSHA256";
    private static final int MAX_REDELIVERIES = 0xFFFF;

    private final Mac mac;

    AckCodec(byte[] secret) {
        if (secret == null || secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException("the ack secret must have at least " + MIN_SECRET_BYTES + " bytes");
        }
        try {
            mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(secret, ALGORITHM));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(ALGORITHM + " is not available in this JVM", e);
        }
    }

    /** The whole frame, length prefix included. */
    byte[] encode(AckFrame frame) {
        int length = PAYLOAD_V1_BYTES + MAC_BYTES;
        ByteBuffer buffer = ByteBuffer.allocate(4 + length);
        buffer.putInt(length).putShort(MAGIC).put(VERSION).put(TYPE_ACK);
        buffer.putLong(frame.runId()).putLong(frame.sequence()).put(frame.kind().code());
        buffer.putLong(frame.receivedEpochMillis()).putShort((short) Math.min(frame.redeliveries(), MAX_REDELIVERIES));
        mac.update(buffer.array(), 0, buffer.position());
        buffer.put(mac.doFinal());
        return buffer.array();
    }

    /**
     * Reads one frame.
     *
     * @return the frame, or null when the stream ended cleanly between frames
     * @throws AckFrameException for input to drop, with its reason
     * @throws IOException       when reading fails (including a read timeout)
     */
    AckFrame read(DataInputStream in) throws IOException, AckFrameException {
        byte[] prefix = new byte[4];
        int first = in.read(prefix, 0, 4);
        if (first < 0) {
            return null;
        }
        try {
            in.readFully(prefix, first, 4 - first);
        } catch (EOFException e) {
            throw new AckFrameException(AckRejection.TRUNCATED, "connection closed inside a length prefix", false);
        }
        int length = ByteBuffer.wrap(prefix).getInt();
        checkLength(length);
        byte[] rest = new byte[length];
        try {
            in.readFully(rest);
        } catch (EOFException e) {
            throw new AckFrameException(AckRejection.TRUNCATED, "connection closed inside a frame of " + length + " bytes", false);
        }
        return decode(prefix, rest);
    }

    /** Rejects a length prefix before anything of that length is read. */
    static void checkLength(int length) throws AckFrameException {
        if (length > MAX_LENGTH || length < 0) {
            throw new AckFrameException(AckRejection.OVERSIZE,
                "frame length " + Integer.toUnsignedString(length) + " above the maximum " + MAX_LENGTH, false);
        }
        if (length < MIN_LENGTH) {
            throw new AckFrameException(AckRejection.MALFORMED, "frame length " + length + " below the minimum " + MIN_LENGTH, false);
        }
    }

    /** Authenticates, then decodes, the {@code rest} that followed {@code prefix}. */
    AckFrame decode(byte[] prefix, byte[] rest) throws AckFrameException {
        int payloadLength = rest.length - MAC_BYTES;
        mac.update(prefix, 0, 4);
        mac.update(rest, 0, payloadLength);
        byte[] expected = mac.doFinal();
        byte[] actual = new byte[MAC_BYTES];
        System.arraycopy(rest, payloadLength, actual, 0, MAC_BYTES);
        if (!MessageDigest.isEqual(expected, actual)) {
            throw new AckFrameException(AckRejection.BAD_MAC, "frame MAC does not match", false);
        }
        ByteBuffer payload = ByteBuffer.wrap(rest, 0, payloadLength);
        short magic = payload.getShort();
        byte version = payload.get();
        byte type = payload.get();
        if (magic != MAGIC || version != VERSION || type != TYPE_ACK || payloadLength != PAYLOAD_V1_BYTES) {
            throw new AckFrameException(AckRejection.MALFORMED, "authentic frame of unknown shape: magic="
                + Integer.toHexString(magic & 0xFFFF) + " version=" + version + " type=" + type + " payload="
                + payloadLength + " bytes", true);
        }
        long runId = payload.getLong();
        long sequence = payload.getLong();
        byte kindCode = payload.get();
        ProbeKind kind = ProbeKind.ofCode(kindCode);
        if (kind == null) {
            throw new AckFrameException(AckRejection.MALFORMED, "authentic frame with unknown kind code " + kindCode, true);
        }
        long received = payload.getLong();
        int redeliveries = Short.toUnsignedInt(payload.getShort());
        return new AckFrame(runId, sequence, kind, received, redeliveries);
    }
}
