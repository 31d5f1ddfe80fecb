package io.lanemq.delay;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** An engine on a fake clock in a fresh directory for every test, closed after it. */
abstract class EngineTestBase {
    @TempDir
    Path dir;
    EngineFixture f;
    /** The fake clock's time when the test started. */
    long t0;

    @BeforeEach
    void openEngine() throws Exception {
        f = new EngineFixture(dir);
        t0 = f.clock.millis();
    }

    @AfterEach
    void closeEngine() {
        f.close();
    }
}
