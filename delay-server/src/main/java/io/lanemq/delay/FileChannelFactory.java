package io.lanemq.delay;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.util.Set;

/** Opens the store's files; tests substitute channels that fail like a full or read-only disk. */
@FunctionalInterface
interface FileChannelFactory {

    FileChannelFactory SYSTEM = FileChannel::open;

    FileChannel open(Path path, Set<? extends OpenOption> options) throws IOException;
}
