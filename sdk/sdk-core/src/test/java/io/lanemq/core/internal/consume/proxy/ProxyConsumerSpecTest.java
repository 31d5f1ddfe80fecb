package io.lanemq.core.internal.consume.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.api.Subscription;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ProxyConsumerSpecTest {
    private static final Subscription SUBSCRIPTION = Subscription.builder("order-paid", "billing").build();

    @Test
    void neitherTheSpecNorTheIdentityPrintsTheToken() {
        ProxyConsumerSpec spec = new ProxyConsumerSpec(SUBSCRIPTION, 4, List.of("127.0.0.1:7443"), Path.of("/ca.pem"),
                "checkout", "s3cret-token", "");

        assertThat(spec.toString()).doesNotContain("s3cret-token").contains("checkout", "127.0.0.1:7443");
        assertThat(new ProxyIdentity("checkout", Optional.of("s3cret-token")).toString()).doesNotContain("s3cret-token");
        assertThat(spec.credits()).as("eight per listener thread").isEqualTo(32);
        assertThat(spec.ackBatch()).as("a quarter of the credits").isEqualTo(8);
    }

    @Test
    void aSpecNeedsAnEndpoint() {
        assertThatThrownBy(() -> new ProxyConsumerSpec(SUBSCRIPTION, 4, List.of(), Path.of("/ca.pem"), "checkout", "t", ""))
                .hasMessageContaining("no consumer proxy endpoint").hasMessageContaining("billing");
    }
}
