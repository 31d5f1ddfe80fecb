package io.lanemq.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class MessageContextTest {

    @Test
    void aScopeSetsTheThreadsContextAndRestoresTheOneBefore() {
        MessageContext outer = MessageContext.none().withLane(Lane.of("A"));
        MessageContext inner = outer.withLane(Lane.of("A.X")).withStressTest(true);

        try (MessageContext.Scope ignored = outer.enter()) {
            try (MessageContext.Scope alsoIgnored = inner.enter()) {
                assertThat(MessageContext.current()).isEqualTo(inner);
                assertThat(MessageContext.current().lane()).contains(Lane.of("A.X"));
                assertThat(MessageContext.current().stressTest()).isTrue();
            }
            assertThat(MessageContext.current()).isEqualTo(outer);
            assertThat(MessageContext.current().withoutLane().lane()).isEmpty();
        }
        assertThat(MessageContext.current()).isEqualTo(MessageContext.none());
    }

    @Test
    void wrappedWorkRunsInTheContextOnAnotherThread() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            MessageContext context = MessageContext.none().withLane(Lane.of("B"));
            CompletableFuture<MessageContext> seenByRunnable = new CompletableFuture<>();

            executor.submit(context.wrap(() -> { seenByRunnable.complete(MessageContext.current()); })).get();
            MessageContext seenByCallable = executor.submit(context.wrap(MessageContext::current)).get();
            MessageContext afterwards = executor.submit(MessageContext::current).get();

            assertThat(seenByRunnable.get()).isEqualTo(context);
            assertThat(seenByCallable).isEqualTo(context);
            assertThat(afterwards).as("the pool thread's own context once the task is done").isEqualTo(MessageContext.none());
        } finally {
            executor.shutdownNow();
        }
    }
}
