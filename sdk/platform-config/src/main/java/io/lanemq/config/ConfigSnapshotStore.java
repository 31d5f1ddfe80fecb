package io.lanemq.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.InstantSource;
import java.time.format.DateTimeParseException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A directory of local snapshots of configuration documents, one file per source and key: the last document a client
 * applied, so that it can start on it while its source (etcd) is unreachable.
 *
 * <p>A snapshot is JSON holding the source, the key, the revision, when it was written, the document's exact text
 * (every environment in it: the reader resolves its own) and a SHA-256 over all of these. It is written to a temporary
 * file that is forced to disk, renamed over the old one and followed by a force of the directory, so a crash leaves
 * the old snapshot or the new one, never a mix. On POSIX file systems the directory is 0700 and the files 0600 (the
 * document names clusters and credential references); a directory another user owns is refused, as one planted in a
 * shared {@code /tmp} would be.
 *
 * <p>Reading refuses, with the file and the problem named, a snapshot that is truncated, not JSON, of another
 * format, of another source or key, or whose checksum does not match: the caller then has no configuration rather
 * than half of one. Thread-safe: each save writes its own temporary file and the rename is atomic.
 */
public final class ConfigSnapshotStore {
    /** System property naming the snapshot directory, or {@value #OFF} for none. */
    public static final String DIRECTORY_PROPERTY = "lanemq.config.snapshot-dir";
    /** Environment variable read when the system property is not set (what a Kubernetes manifest sets). */
    public static final String DIRECTORY_VARIABLE = "LANEMQ_CONFIG_SNAPSHOT_DIR";
    /** The value of either that turns snapshots off. */
    public static final String OFF = "off";
    static final int FORMAT = 1;
    private static final String SUFFIX = ".snapshot.json";
    private static final Set<PosixFilePermission> DIRECTORY_MODE = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE_MODE = PosixFilePermissions.fromString("rw-------");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path directory;
    private final InstantSource clock;
    private final boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    public ConfigSnapshotStore(Path directory) {
        this(directory, InstantSource.system());
    }

    /** @param clock when a snapshot is written, as recorded in it */
    public ConfigSnapshotStore(Path directory, InstantSource clock) {
        this.directory = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize();
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The snapshot directory this deployment names: system property {@value #DIRECTORY_PROPERTY}, else environment
     * variable {@value #DIRECTORY_VARIABLE}, else {@code <java.io.tmpdir>/lanemq-snapshots-<user.name>}; empty when
     * either says {@value #OFF}. The default is per user so that two users of one host never share (or block) it.
     */
    public static Optional<Path> deploymentDirectory() {
        String named = System.getProperty(DIRECTORY_PROPERTY);
        if (named == null || named.isBlank()) {
            named = System.getenv(DIRECTORY_VARIABLE);
        }
        if (named == null || named.isBlank()) {
            String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
            return Optional.of(Path.of(System.getProperty("java.io.tmpdir"), "lanemq-snapshots-" + user));
        }
        return OFF.equalsIgnoreCase(named.strip()) ? Optional.empty() : Optional.of(Path.of(named.strip()));
    }

    public Path directory() {
        return directory;
    }

    /**
     * The file holding the snapshot of {@code key} from {@code source}: the key made safe for a file name, then a hash
     * of source and key, so two sources of one key (two etcd clusters) never share a file.
     */
    public Path fileFor(String source, String key) {
        String readable = key.replaceAll("[^A-Za-z0-9._-]+", "_").replaceAll("^_+", "");
        if (readable.length() > 80) {
            readable = readable.substring(readable.length() - 80);
        }
        String hash = HexFormat.of().formatHex(sha256((source + "\n" + key).getBytes(StandardCharsets.UTF_8)), 0, 8);
        return directory.resolve((readable.isEmpty() ? "config" : readable) + "-" + hash + SUFFIX);
    }

    /**
     * Writes {@code document} as the snapshot of its source and key, replacing the previous one atomically.
     *
     * @return the file written
     * @throws IOException the directory cannot be made or is not this user's, or the write failed (the previous
     *                     snapshot is then unchanged)
     */
    public Path save(ConfigDocument document) throws IOException {
        ensureDirectory();
        Path file = fileFor(document.source(), document.key());
        Instant savedAt = clock.instant();
        ObjectNode json = JSON.createObjectNode();
        json.put("format", FORMAT);
        json.put("source", document.source());
        json.put("key", document.key());
        json.put("revision", document.revision());
        if (document.canary()) {
            json.put("canary", true);
        }
        json.put("savedAt", savedAt.toString());
        json.put("sha256", checksum(document.source(), document.key(), document.revision(), savedAt.toString(), document.text()));
        json.put("document", document.text());
        byte[] bytes = JSON.writeValueAsBytes(json);
        Path temporary = posix
                ? Files.createTempFile(directory, file.getFileName().toString(), ".tmp", PosixFilePermissions.asFileAttribute(FILE_MODE))
                : Files.createTempFile(directory, file.getFileName().toString(), ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            try {
                Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                throw new IOException("cannot replace " + file + " atomically on this file system: " + e.getMessage(), e);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
        forceDirectory();
        return file;
    }

    /**
     * Reads the snapshot of {@code key} from {@code source}.
     *
     * @return the document, with {@link ConfigDocument#snapshotAt()} set; empty when there is none
     * @throws SnapshotRefusedException the file is there but unusable: the message names it and says why
     */
    public Optional<ConfigDocument> read(String source, String key) throws SnapshotRefusedException {
        Path file = fileFor(source, key);
        byte[] bytes;
        try {
            checkOwner(directory);
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new SnapshotRefusedException(file, "it cannot be read: " + e, e);
        }
        JsonNode json;
        try {
            json = JSON.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new SnapshotRefusedException(file, (e.getMessage() != null && e.getMessage().contains("end-of-input")
                    ? "it is truncated (" + bytes.length + " bytes, the JSON ends early)" : "it is not JSON")
                    + ": " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new SnapshotRefusedException(file, "it cannot be parsed: " + e.getMessage(), e);
        }
        if (json == null || !json.isObject()) {
            throw new SnapshotRefusedException(file, bytes.length == 0 ? "it is empty (truncated)" : "it is not a LaneMQ configuration snapshot");
        }
        int format = json.path("format").asInt(-1);
        if (format != FORMAT) {
            throw new SnapshotRefusedException(file, "its format is " + json.path("format") + ", this client reads format " + FORMAT);
        }
        String savedSource = text(json, "source", file);
        String savedKey = text(json, "key", file);
        if (!savedSource.equals(source) || !savedKey.equals(key)) {
            throw new SnapshotRefusedException(file, "it holds key '" + savedKey + "' of " + savedSource
                    + ", not key '" + key + "' of " + source);
        }
        JsonNode revisionNode = json.get("revision");
        if (revisionNode == null || !revisionNode.canConvertToLong()) {
            throw new SnapshotRefusedException(file, "it has no revision");
        }
        long revision = revisionNode.asLong();
        String savedAtText = text(json, "savedAt", file);
        String document = text(json, "document", file);
        String expected = checksum(savedSource, savedKey, revision, savedAtText, document);
        if (!expected.equals(text(json, "sha256", file).toLowerCase(Locale.ROOT))) {
            throw new SnapshotRefusedException(file, "its checksum does not match its content (the file was altered or damaged)");
        }
        Instant savedAt;
        try {
            savedAt = Instant.parse(savedAtText);
        } catch (DateTimeParseException e) {
            throw new SnapshotRefusedException(file, "its savedAt '" + savedAtText + "' is not a time", e);
        }
        // Not covered by the checksum, which older snapshots hold without it: it only says what the revision counts.
        boolean canary = json.path("canary").asBoolean(false);
        return Optional.of(new ConfigDocument(savedSource, savedKey, revision, document, Optional.of(savedAt), canary));
    }

    private static String text(JsonNode json, String field, Path file) throws SnapshotRefusedException {
        JsonNode node = json.get(field);
        if (node == null || !node.isTextual()) {
            throw new SnapshotRefusedException(file, "it has no '" + field + "'");
        }
        return node.asText();
    }

    private void ensureDirectory() throws IOException {
        if (!Files.isDirectory(directory)) {
            if (posix) {
                Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(DIRECTORY_MODE));
            } else {
                Files.createDirectories(directory);
            }
        }
        checkOwner(directory);
        if (posix && !Files.getPosixFilePermissions(directory).equals(DIRECTORY_MODE)) {
            // createDirectories' mode is filtered by the umask, and an existing directory may be wider.
            Files.setPosixFilePermissions(directory, DIRECTORY_MODE);
        }
    }

    private void checkOwner(Path path) throws IOException {
        if (!posix || !Files.exists(path)) {
            return;
        }
        UserPrincipal owner = Files.getOwner(path);
        UserPrincipal me = path.getFileSystem().getUserPrincipalLookupService()
                .lookupPrincipalByName(System.getProperty("user.name"));
        if (!owner.equals(me)) {
            throw new IOException("snapshot directory " + path + " belongs to " + owner.getName() + ", not to "
                    + me.getName() + "; choose another (" + DIRECTORY_PROPERTY + " or " + DIRECTORY_VARIABLE + ")");
        }
    }

    /** Makes the rename durable: without it a power loss may bring back the directory entry of the old file. */
    private void forceDirectory() throws IOException {
        if (!posix) {
            return; // Windows cannot open a directory as a channel; NTFS journals the rename itself.
        }
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    static String checksum(String source, String key, long revision, String savedAt, String document) {
        String covered = FORMAT + "\n" + source + "\n" + key + "\n" + revision + "\n" + savedAt + "\n" + document;
        return HexFormat.of().formatHex(sha256(covered.getBytes(StandardCharsets.UTF_8)));
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "ConfigSnapshotStore[" + directory + "]";
    }
}
