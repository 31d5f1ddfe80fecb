package io.lanemq.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The proxy token is a secret: optional, checked when set, and never printed. (sdk-api has no test dependencies.) */
class ClientOptionsProxyTokenTest {
    @Test
    void theTokenIsOptionalAndNeverPrinted() {
        ClientOptions without = ClientOptions.builder("checkout").configLocation("file:/p.yaml").build();
        ClientOptions with = ClientOptions.builder("checkout").configLocation("file:/p.yaml").proxyToken("s3cret-token").build();

        assertThat(without.proxyToken()).isEmpty();
        assertThat(with.proxyToken()).contains("s3cret-token");
        assertThat(with.toString()).doesNotContain("s3cret-token").contains("proxyToken=(set)");
    }

    @Test
    void aTokenThatCannotTravelInAHeaderIsRefusedWithoutQuotingIt() {
        assertThatThrownBy(() -> ClientOptions.builder("checkout").proxyToken("two words"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("proxyToken").hasMessageNotContaining("two words");
        assertThatThrownBy(() -> ClientOptions.builder("checkout").proxyToken(""))
                .hasMessageContaining("proxyToken");
    }
}
