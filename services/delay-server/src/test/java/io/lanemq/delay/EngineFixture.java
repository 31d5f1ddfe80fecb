package io.lanemq.delay;

import io.lanemq.support.FakeClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.function.UnaryOperator;

/** An engine on a directory with a fake clock and a recording sink; reopenable like a restarted server. */
final class EngineFixture implements AutoCloseable {

    final Path dir;
    final FakeClock clock;
    final RecordingSink sink;
    private final UnaryOperator<DelayEngine.Builder> settings;
    DelayEngine engine;

    EngineFixture(Path dir) throws DelayStoreException {
        this(dir, new FakeClock(), b -> b);
    }

    EngineFixture(Path dir, FakeClock clock, UnaryOperator<DelayEngine.Builder> settings) throws DelayStoreException {
        this.dir = dir;
        this.clock = clock;
        this.sink = new RecordingSink(clock);
        this.settings = settings;
        this.engine = open();
    }

    private DelayEngine open() throws DelayStoreException {
        return settings.apply(DelayEngine.builder()
                .directory(dir)
                .name("test")
                .clock(clock)
                .sink(sink)
                .loadAhead(Duration.ofSeconds(30))
                .retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1)))
                .build();
    }

    /** Close and open again on the same directory, as a restarted server would. */
    void restart() throws DelayStoreException {
        engine.close();
        engine = open();
    }

    /** Drop the engine as kill -9 would, and open again. */
    void crashAndRestart() throws DelayStoreException {
        crashAndRestart(() -> { });
    }

    /** Drop the engine as kill -9 would, run {@code whileDown} (heal a disk, say), and open again. */
    void crashAndRestart(Runnable whileDown) throws DelayStoreException {
        engine.abandon();
        whileDown.run();
        engine = open();
    }

    /** Cuts the power under a running engine ({@code disk} must be its files): kill -9 plus a lost page cache; then opens again. */
    void powerLossAndRestart(PowerLossDisk disk) throws Exception {
        disk.powerOff();
        engine.abandon();
        disk.powerOn();
        engine = open();
    }

    /** Sets the clock and waits until the engine has acted on it. */
    void advanceTo(long millis) throws InterruptedException {
        clock.setInstant(Instant.ofEpochMilli(millis));
        engine.awaitCycles();
    }

    /** Steps the clock one millisecond at a time, letting the engine act at each. */
    void stepTo(long millis) throws InterruptedException {
        for (long t = clock.millis() + 1; t <= millis; t++) {
            advanceTo(t);
        }
    }

    DelayedRecord record(long dueAt, String body) {
        return DelayedRecord.builder().dueAt(dueAt).target("order_paid", "cluster-a")
                .keys(java.util.List.of("k-" + body)).property("lane", "A").body(body.getBytes()).build();
    }

    DelayedRecord schedule(long dueAt, String body) throws DelayEngineException {
        DelayedRecord r = record(dueAt, body);
        engine.schedule(r);
        return r;
    }

    @Override
    public void close() {
        engine.close();
    }
}
