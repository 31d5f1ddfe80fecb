package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AckCodecTest {

    static final byte[] SECRET = "0123456789abcdef0123456789abcdef".getBytes(StandardCharsets.UTF_8);
    private static final AckFrame FRAME = new AckFrame(0x1234_5678_9ABC_DEF0L, 42, ProbeKind.DELAYED, 1_700_000_000_123L, 3);

    private final AckCodec codec = new AckCodec(SECRET);

    @Test
    void roundTripsAFrame() throws Exception {
        byte[] bytes = codec.encode(FRAME);
        assertThat(bytes).hasSize(4 + AckCodec.PAYLOAD_V1_BYTES + AckCodec.MAC_BYTES);
        assertThat(ByteBuffer.wrap(bytes).getInt()).isEqualTo(bytes.length - 4);
        assertThat(read(bytes)).isEqualTo(FRAME);
    }

    @Test
    void readsConsecutiveFramesAndEndsCleanlyBetweenFrames() throws Exception {
        AckFrame second = new AckFrame(1, 43, ProbeKind.NORMAL, 5, 0);
        DataInputStream in = stream(concat(codec.encode(FRAME), codec.encode(second)));
        assertThat(codec.read(in)).isEqualTo(FRAME);
        assertThat(codec.read(in)).isEqualTo(second);
        assertThat(codec.read(in)).isNull();
    }

    @Test
    void capsRedeliveriesAtTheFieldWidth() throws Exception {
        AckFrame many = new AckFrame(1, 2, ProbeKind.NORMAL, 3, 1_000_000);
        assertThat(read(codec.encode(many)).redeliveries()).isEqualTo(0xFFFF);
    }

    @Test
    void rejectsAFrameUnderAnotherSecret() {
        byte[] bytes = new AckCodec("another-secret-of-enough-bytes!!".getBytes(StandardCharsets.UTF_8)).encode(FRAME);
        assertRejected(bytes, AckRejection.BAD_MAC, false);
    }

    @Test
    void rejectsEveryTamperedByte() {
        byte[] good = codec.encode(FRAME);
        for (int i = 4; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x01;
            assertRejected(bad, AckRejection.BAD_MAC, false);
        }
    }

    @Test
    void rejectsAHugeLengthPrefixWithoutReadingOrAllocatingIt() {
        assertRejected(ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).array(), AckRejection.OVERSIZE, false);
        assertRejected(ByteBuffer.allocate(8).putInt(-1).array(), AckRejection.OVERSIZE, false);
        assertRejected(ByteBuffer.allocate(8).putInt(AckCodec.MAX_LENGTH + 1).array(), AckRejection.OVERSIZE, false);
    }

    @Test
    void rejectsALengthTooShortForAMac() {
        assertRejected(ByteBuffer.allocate(40).putInt(AckCodec.MIN_LENGTH - 1).array(), AckRejection.MALFORMED, false);
    }

    @Test
    void rejectsTruncatedFrames() {
        byte[] good = codec.encode(FRAME);
        for (int cut = 1; cut < good.length; cut++) {
            assertRejected(Arrays.copyOf(good, cut), AckRejection.TRUNCATED, false);
        }
    }

    @Test
    void rejectsAnAuthenticFrameOfUnknownVersionButKeepsTheConnectionUsable() {
        byte[] frame = codec.encode(FRAME);
        frame[6] = 9; // version
        assertRejected(resign(frame), AckRejection.MALFORMED, true);
    }

    @Test
    void rejectsAnAuthenticFrameOfUnknownKind() {
        byte[] frame = codec.encode(FRAME);
        frame[24] = 77; // kind
        assertRejected(resign(frame), AckRejection.MALFORMED, true);
    }

    @Test
    void randomGarbageIsOnlyEverRejectedNeverAnUnexpectedException() {
        Random random = new Random(7);
        for (int i = 0; i < 5_000; i++) {
            byte[] garbage = new byte[random.nextInt(200)];
            random.nextBytes(garbage);
            if (random.nextBoolean() && garbage.length >= 4) {
                ByteBuffer.wrap(garbage).putInt(random.nextInt(AckCodec.MAX_LENGTH + 50)); // plausible lengths too
            }
            Throwable thrown = catchThrowable(() -> {
                DataInputStream in = stream(garbage);
                while (codec.read(in) != null) {
                    // a frame can only come out of garbage with a forged MAC: practically never
                }
            });
            assertThat(thrown).as("garbage #%d", i).satisfiesAnyOf(
                t -> assertThat(t).isNull(), t -> assertThat(t).isInstanceOf(AckFrameException.class));
        }
    }

    @Test
    void refusesShortSecrets() {
        assertThatThrownBy(() -> new AckCodec(new byte[15])).hasMessageContaining("at least 16 bytes");
    }

    private byte[] resign(byte[] frame) {
        byte[] prefix = Arrays.copyOf(frame, 4);
        byte[] payload = Arrays.copyOfRange(frame, 4, frame.length - AckCodec.MAC_BYTES);
        try {
            javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
            mac.init(new javax.crypto.spec.SecretKeySpec(SECRET, "HmacSHA256"));
            mac.update(prefix);
            mac.update(payload);
            return concat(concat(prefix, payload), mac.doFinal());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private void assertRejected(byte[] bytes, AckRejection reason, boolean usable) {
        Throwable thrown = catchThrowable(() -> read(bytes));
        assertThat(thrown).isInstanceOf(AckFrameException.class);
        assertThat(((AckFrameException) thrown).reason()).isEqualTo(reason);
        assertThat(((AckFrameException) thrown).connectionUsable()).isEqualTo(usable);
    }

    private AckFrame read(byte[] bytes) throws IOException, AckFrameException {
        return codec.read(stream(bytes));
    }

    private static DataInputStream stream(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
