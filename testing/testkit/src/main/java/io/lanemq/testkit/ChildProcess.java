package io.lanemq.testkit;

import io.lanemq.testkit.process.ChildProtocol;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM, launched again on every start with the same command.
 *
 * <p>Its stdout and stderr are appended to a log file rather than piped, so a child can never block on a pipe
 * nobody reads; readiness is the READY marker appearing in that file after the offset where this launch began.
 * Its stdin stays a pipe that carries only the stop command: see {@link io.lanemq.testkit.process.ChildProtocol}.
 */
final class ChildProcess {

    private static final int TAIL_LINES = 40;
    private static final int TAIL_BYTES = 16 * 1024;

    private final String description;
    private final List<String> command;
    private final Path workDir;
    private final Path logFile;
    private Process process;
    private long logOffset;

    ChildProcess(String description, List<String> command, Path workDir, Path logFile) {
        this.description = description;
        this.command = List.copyOf(command);
        this.workDir = workDir;
        this.logFile = logFile;
    }

    Path logFile() {
        return logFile;
    }

    synchronized boolean isAlive() {
        return process != null && process.isAlive();
    }

    synchronized OptionalLong pid() {
        return isAlive() ? OptionalLong.of(process.pid()) : OptionalLong.empty();
    }

    synchronized void launch() {
        if (isAlive()) {
            throw new IllegalStateException(description + " is already running");
        }
        try {
            logOffset = Files.exists(logFile) ? Files.size(logFile) : 0;
            process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                .start();
        } catch (IOException e) {
            throw new TestkitException("cannot launch " + description + ": " + e.getMessage(), e);
        }
    }

    /** Waits for the READY marker of the current launch; kills the child and throws if it does not come. */
    void awaitReady(Deadline deadline) {
        Process p;
        long offset;
        synchronized (this) {
            p = process;
            offset = logOffset;
        }
        if (p == null) {
            throw new IllegalStateException(description + " was never launched");
        }
        deadline.await(() -> !p.isAlive() || readySince(offset));
        if (p.isAlive() && readySince(offset)) {
            return;
        }
        String why = p.isAlive()
            ? "was not ready within " + deadline.budget().toSeconds() + " s"
            : "exited with code " + exitCode(p) + " before it was ready";
        kill();
        throw failure(why);
    }

    /** An exception naming this child, the problem and the tail of the current launch's log. */
    TestkitException failure(String why) {
        return new TestkitException(description + " " + why + ". Log " + logFile + ", last lines:\n" + tail());
    }

    /** Asks for a graceful shutdown: the child exits through its shutdown hook, which stops the server. */
    synchronized void requestStop() {
        if (!isAlive()) {
            return;
        }
        try {
            OutputStream stdin = process.getOutputStream();
            stdin.write((ChildProtocol.STOP_COMMAND + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
        } catch (IOException e) {
            // The child is exiting already; awaitExit() will see it gone.
        }
    }

    /** Waits for the child to exit after {@link #requestStop()}; kills it when {@code timeout} passes. */
    void awaitExit(Duration timeout) {
        Process p;
        synchronized (this) {
            p = process;
        }
        if (p == null) {
            return;
        }
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            throw new TestkitException("interrupted while stopping " + description, e);
        }
        closeStreams(p);
    }

    /** SIGKILL, then waits until the process is gone (so its ports and files are released). */
    void kill() {
        Process p;
        synchronized (this) {
            p = process;
        }
        if (p == null) {
            return;
        }
        p.destroyForcibly();
        boolean interrupted = false;
        while (true) {
            try {
                p.waitFor();
                break;
            } catch (InterruptedException e) {
                // Leaving a half-dead child behind would be worse than finishing this short wait.
                interrupted = true;
            }
        }
        closeStreams(p);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeStreams(Process p) {
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // The child is gone: nothing is left to flush.
        }
    }

    private static String exitCode(Process p) {
        try {
            return String.valueOf(p.exitValue());
        } catch (IllegalThreadStateException e) {
            return "?";
        }
    }

    private boolean readySince(long offset) {
        String marker = ChildProtocol.READY_MARKER;
        try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r")) {
            long length = file.length();
            if (length <= offset) {
                return false;
            }
            byte[] bytes = new byte[(int) Math.min(length - offset, Integer.MAX_VALUE - 8)];
            file.seek(offset);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8).contains(marker);
        } catch (IOException e) {
            return false;
        }
    }

    private String tail() {
        try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r")) {
            long from = Math.max(logOffset, file.length() - TAIL_BYTES);
            byte[] bytes = new byte[(int) (file.length() - from)];
            file.seek(from);
            file.readFully(bytes);
            String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
            int first = Math.max(0, lines.length - TAIL_LINES);
            StringBuilder sb = new StringBuilder();
            for (int i = first; i < lines.length; i++) {
                sb.append("  | ").append(lines[i]).append('\n');
            }
            return sb.length() == 0 ? "  | (empty)\n" : sb.toString();
        } catch (IOException e) {
            return "  | (log unreadable: " + e.getMessage() + ")\n";
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
