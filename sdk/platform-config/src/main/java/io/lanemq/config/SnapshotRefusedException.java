package io.lanemq.config;

import io.lanemq.api.InvalidConfigurationException;
import java.nio.file.Path;

/** A local configuration snapshot that is there but cannot be trusted; the message names the file and the problem. */
public final class SnapshotRefusedException extends InvalidConfigurationException {
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    SnapshotRefusedException(Path file, String problem) {
        this(file, problem, null);
    }

    SnapshotRefusedException(Path file, String problem, Throwable cause) {
        super("configuration snapshot " + file + " is refused: " + problem, cause);
        this.file = file;
    }

    /** The snapshot file. */
    public Path file() {
        return file;
    }
}
