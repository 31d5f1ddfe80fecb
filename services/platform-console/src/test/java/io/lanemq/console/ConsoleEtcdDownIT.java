package io.lanemq.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.testkit.etcd.EtcdServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A console started while etcd is unreachable starts, says so on its pages, and works once etcd answers. */
@Execution(ExecutionMode.CONCURRENT) // waits on an etcd and a console of its own: see junit-platform.properties
class ConsoleEtcdDownIT {

    @Test
    void aConsoleStartedWhileEtcdIsDownShowsItAndRecoversWhenEtcdReturns() throws Exception {
        try (EtcdServer etcd = EtcdServer.started();
             ConsoleFixture console = ConsoleFixture.startAfter(etcd::stop, etcd, "/lanemq/platform/console-etcd-down",
                     ConsoleApiIT.twoIdcs())) {
            ConsoleSession olga = ConsoleSession.signIn(console.base(), "olga", ConsoleFixture.PASSWORD);

            HttpResponse<String> down = olga.get("/topics");
            assertThat(down.statusCode()).as("served, with etcd's state: 503 while etcd does not answer").isEqualTo(503);
            assertThat(down.body()).contains("etcd did not answer").contains(etcd.endpoint());

            etcd.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> olga.get("/topics").statusCode() == 200);
            assertThat(olga.get("/topics").body()).contains("order-paid");
        }
    }
}
