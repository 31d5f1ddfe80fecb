package io.lanemq.dialtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class ProbeBodyTest {

    private static final ProbeBody BODY = new ProbeBody("127.0.0.1", 40123, -7L, 123_456_789L, ProbeKind.TRANSACTIONAL,
        true, 1_700_000_000_000L, 5_000, "cluster-a", "idc-a-broker-0");

    @Test
    void roundTripsAndPadsToTheConfiguredSize() {
        byte[] bytes = BODY.encode(512);
        assertThat(bytes).hasSize(512);
        assertThat(ProbeBody.looksLikeProbe(bytes)).isTrue();
        assertThat(ProbeBody.decode(bytes)).isEqualTo(BODY);
    }

    @Test
    void aHeaderLongerThanTheSizeIsSentUnpadded() {
        byte[] bytes = BODY.encode(10);
        int header = ProbeBody.FIXED_BYTES + "127.0.0.1".length() + "cluster-a".length() + "idc-a-broker-0".length();
        assertThat(bytes).hasSize(header);
        assertThat(ProbeBody.decode(bytes)).isEqualTo(BODY);
    }

    @Test
    void untrackedAndUnicodeNamesSurvive() {
        ProbeBody body = new ProbeBody("::1", 1, 1, 2, ProbeKind.NORMAL, false, 3, 0, "集群", "broker-ü");
        assertThat(ProbeBody.decode(body.encode(64))).isEqualTo(body);
    }

    @Test
    void rejectsWhatIsNotAProbe() {
        assertThatThrownBy(() -> ProbeBody.decode(new byte[10])).hasMessageContaining("too short");
        assertThatThrownBy(() -> ProbeBody.decode(new byte[100])).hasMessageContaining("bad magic");
        byte[] newer = BODY.encode(128);
        newer[4] = 2;
        assertThatThrownBy(() -> ProbeBody.decode(newer)).hasMessageContaining("version 2");
        byte[] truncated = Arrays.copyOf(BODY.encode(0), ProbeBody.FIXED_BYTES + 3);
        assertThatThrownBy(() -> ProbeBody.decode(truncated)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void garbageOnlyEverFailsWithIllegalArgument() {
        Random random = new Random(5);
        byte[] good = BODY.encode(128);
        for (int i = 0; i < 5_000; i++) {
            byte[] bytes = good.clone();
            for (int j = 0; j < 1 + random.nextInt(4); j++) {
                bytes[random.nextInt(bytes.length)] = (byte) random.nextInt();
            }
            Throwable thrown = catchThrowable(() -> ProbeBody.decode(Arrays.copyOf(bytes, random.nextInt(bytes.length + 1))));
            if (thrown != null) {
                assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
            }
        }
    }

    @Test
    void validatesItsFields() {
        assertThatThrownBy(() -> new ProbeBody("h", 0, 1, 1, ProbeKind.NORMAL, true, 1, 0, "c", "b"))
            .hasMessageContaining("ackPort");
        assertThatThrownBy(() -> new ProbeBody("h", 1, 1, 1, ProbeKind.NORMAL, true, 1, 0, "", "b"))
            .hasMessageContaining("cluster");
        assertThatThrownBy(() -> new ProbeBody("h", 1, 1, 1, ProbeKind.NORMAL, true, 1, 0, "c", "b".repeat(256)))
            .hasMessageContaining("broker");
    }
}
