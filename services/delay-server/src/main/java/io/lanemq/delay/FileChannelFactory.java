package io.lanemq.delay;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;

/** Opens the store's files; tests substitute channels that fail like a full or read-only disk. */
@FunctionalInterface
interface FileChannelFactory {

    FileChannelFactory SYSTEM = FileChannel::open;

    FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;

    /**
     * Makes the directory's entries durable: a file created in it survives a power loss only once this returned
     * (fsync of the file alone keeps its bytes, not its name, on file systems and mount options that do not journal
     * the directory with the file; ext4 with data=ordered and XFS happen to, others need it). A platform that cannot
     * open a directory (Windows) makes its names as durable as it does anyway; that is not an error.
     */
    default void forceDirectory(Path directory) throws IOException {
        FileChannel dir;
        try {
            dir = FileChannel.open(directory, StandardOpenOption.READ);
        } catch (IOException | UnsupportedOperationException cannotOpenADirectory) {
            return;
        }
        try (dir) {
            dir.force(true);
        }
    }
}
