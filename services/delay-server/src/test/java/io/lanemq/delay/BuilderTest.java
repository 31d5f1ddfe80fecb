package io.lanemq.delay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuilderTest {

    @TempDir
    Path dir;

    private final DeliverySink sink = r -> CompletableFuture.completedFuture(null);

    @Test
    void eachSettingIsValidatedAtOnceAndNamed() {
        DelayEngine.Builder b = DelayEngine.builder();
        assertThatThrownBy(() -> b.bucketSpan(Duration.ofMillis(10))).hasMessageContaining("bucketSpan");
        assertThatThrownBy(() -> b.maxDelay(Duration.ZERO)).hasMessageContaining("maxDelay");
        assertThatThrownBy(() -> b.loadAhead(Duration.ofSeconds(-1))).hasMessageContaining("loadAhead");
        assertThatThrownBy(() -> b.retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("retryBackoff max");
        assertThatThrownBy(() -> b.name("has space")).hasMessageContaining("name");
        assertThatThrownBy(() -> b.maxOpenSegments(1)).hasMessageContaining("maxOpenSegments");
        assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class).hasMessageContaining("directory");
        assertThatThrownBy(() -> DelayEngine.builder().directory(dir).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("sink");
    }

    @Test
    void aDirectoryKeepsItsBucketSpan() throws Exception {
        DelayEngine.builder().directory(dir).sink(sink).bucketSpan(Duration.ofMinutes(1)).build().close();
        assertThatThrownBy(() -> DelayEngine.builder().directory(dir).sink(sink).bucketSpan(Duration.ofMinutes(5)).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bucketSpan 300000 ms conflicts with").hasMessageContaining("60000 ms");
    }

    @Test
    void oneEngineAtATimePerDirectory() throws Exception {
        try (DelayEngine first = DelayEngine.builder().directory(dir).sink(sink).build()) {
            assertThatThrownBy(() -> DelayEngine.builder().directory(dir).sink(sink).build())
                    .isInstanceOf(DelayStoreException.class).hasMessageContaining("in use");
            assertThat(first.pendingCount()).isZero();
        }
        DelayEngine.builder().directory(dir).sink(sink).build().close();
    }

    @Test
    void aClosedEngineRefusesWork() throws Exception {
        DelayEngine engine = DelayEngine.builder().directory(dir).sink(sink).build();
        engine.close();
        engine.close();
        assertThatThrownBy(() -> engine.schedule(DelayedRecord.builder().dueAt(1).target("t", "").build()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void recordBuilderRejectsMissingOrConflictingFields() {
        assertThatThrownBy(() -> DelayedRecord.builder().dueAt(1).build()).hasMessageContaining("target");
        assertThatThrownBy(() -> DelayedRecord.builder().target("t", "").build()).hasMessageContaining("dueAt");
        assertThatThrownBy(() -> DelayedRecord.builder().target("t", "").id(new DelayId(5, 1)).dueAt(6).build())
                .hasMessageContaining("disagrees");
        assertThatThrownBy(() -> DelayedRecord.builder().target("", "")).hasMessageContaining("topic");
    }

    @Test
    void anOversizeRecordIsRejected() throws Exception {
        try (DelayEngine engine = DelayEngine.builder().directory(dir).sink(sink).maxRecordBytes(1_000).build()) {
            DelayedRecord big = DelayedRecord.builder().dueAt(System.currentTimeMillis() + 60_000).target("t", "")
                    .body(new byte[1_000]).build();
            assertThatThrownBy(() -> engine.schedule(big)).isInstanceOf(DelayRejectedException.class)
                    .hasMessageContaining("maxRecordBytes 1000").hasMessageContaining(big.id().toString());
        }
    }
}
