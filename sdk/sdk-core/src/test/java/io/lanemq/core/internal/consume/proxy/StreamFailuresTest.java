package io.lanemq.core.internal.consume.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.lanemq.api.Subscription;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamFailuresTest {
    private final StreamFailures failures = new StreamFailures(() -> 1.0);

    @Test
    void aBrokenStreamIsRetriedSoonAndBacksOffWhileItKeepsFailing() {
        assertThat(failures.failed(Status.UNAVAILABLE)).isEqualTo(Duration.ofMillis(200));
        assertThat(failures.failed(Status.UNAVAILABLE)).isEqualTo(Duration.ofMillis(400));
        assertThat(failures.inARow()).isEqualTo(2);

        failures.reset();

        assertThat(failures.failed(Status.CANCELLED)).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void aRefusalIsRetriedSlowlyAndNamesWhatToCheck() {
        assertThat(StreamFailures.isRefusal(Status.UNAUTHENTICATED)).isTrue();
        assertThat(StreamFailures.isRefusal(Status.UNAVAILABLE)).isFalse();
        assertThat(failures.failed(Status.UNAUTHENTICATED)).isEqualTo(Duration.ofSeconds(5));
        for (int i = 0; i < 10; i++) {
            failures.failed(Status.UNAUTHENTICATED);
        }
        assertThat(failures.failed(Status.UNAUTHENTICATED)).isEqualTo(Duration.ofMinutes(1));

        ProxyConsumerSpec spec = new ProxyConsumerSpec(Subscription.builder("order-paid", "billing").build(), 2,
                List.of("127.0.0.1:7443"), Path.of("/ca.pem"), "checkout", "token-123", "");
        assertThat(StreamFailures.remedy(Status.Code.UNAUTHENTICATED, spec)).contains("'checkout'", "ClientOptions.proxyToken");
        assertThat(StreamFailures.remedy(Status.Code.NOT_FOUND, spec)).contains("'billing'", "'order-paid'");
    }
}
