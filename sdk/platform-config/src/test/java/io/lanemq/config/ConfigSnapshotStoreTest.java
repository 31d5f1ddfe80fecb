package io.lanemq.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigSnapshotStoreTest {
    private static final String SOURCE = "etcd://127.0.0.1:2379/lanemq/platform/prod";
    private static final String KEY = "/lanemq/platform/prod";
    private static final Instant WRITTEN = Instant.parse("2026-11-28T17:00:00Z");
    /** Exact text, environments, comments and odd spacing included: what is stored must be what was received. */
    private static final String DOCUMENT = "# platform\nclusters:\n  cluster-a: {idc: a}\nenvironments:\n  staging:\n"
            + "    consumerGroupSuffix: \"-staging\"   # é\n";

    @TempDir
    Path root;

    private ConfigSnapshotStore store() {
        return new ConfigSnapshotStore(root.resolve("snapshots"), InstantSource.fixed(WRITTEN));
    }

    private Path saved() throws Exception {
        return store().save(ConfigDocument.fresh(SOURCE, KEY, 42, DOCUMENT));
    }

    @Test
    void aSavedDocumentIsReadBackExactlyWithItsRevisionAndTime() throws Exception {
        saved();

        ConfigDocument read = store().read(SOURCE, KEY).orElseThrow();

        assertThat(read.text()).as("the text as received, not a re-serialisation").isEqualTo(DOCUMENT);
        assertThat(read.revision()).isEqualTo(42);
        assertThat(read.snapshotAt()).as("when it was written").contains(WRITTEN);
        assertThat(read.stale()).isTrue();
    }

    @Test
    void noSnapshotIsEmpty() throws Exception {
        assertThat(store().read(SOURCE, KEY)).isEmpty();
    }

    @Test
    void theDirectoryIsTheOwnersOnlyAndSoIsTheFile() throws Exception {
        Path file = saved();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void anExistingWiderDirectoryIsNarrowedToTheOwner() throws Exception {
        Path directory = Files.createDirectories(root.resolve("snapshots"));
        Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxrwxr-x"));

        saved();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
    }

    @Test
    void aSaveReplacesTheSnapshotAndLeavesNoTemporaryFile() throws Exception {
        saved();
        store().save(ConfigDocument.fresh(SOURCE, KEY, 43, DOCUMENT + "# next\n"));

        assertThat(store().read(SOURCE, KEY).orElseThrow().revision()).isEqualTo(43);
        try (Stream<Path> files = Files.list(root.resolve("snapshots"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("one snapshot per source and key, no temporary file left").containsExactly(
                            store().fileFor(SOURCE, KEY).getFileName().toString());
        }
    }

    @Test
    void anotherSourceOrKeyHasItsOwnFile() {
        ConfigSnapshotStore store = store();

        assertThat(store.fileFor(SOURCE, KEY)).isNotEqualTo(store.fileFor("etcd://10.0.0.1:2379/lanemq/platform/prod", KEY))
                .isNotEqualTo(store.fileFor(SOURCE, "/lanemq/platform/staging"));
        assertThat(store.fileFor(SOURCE, KEY).getFileName().toString()).startsWith("lanemq_platform_prod-");
    }

    @Test
    void aSnapshotOfAnotherKeyIsRefusedNamingBoth() throws Exception {
        Path file = saved();
        // What a copied or misplaced file looks like: another key's snapshot under this key's name.
        Path other = store().save(ConfigDocument.fresh(SOURCE, "/lanemq/platform/staging", 7, DOCUMENT));
        Files.move(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        assertThatThrownBy(() -> store().read(SOURCE, KEY))
                .isInstanceOf(SnapshotRefusedException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("it holds key '/lanemq/platform/staging' of " + SOURCE + ", not key '" + KEY + "'");
    }

    @Test
    void anAlteredDocumentFailsTheChecksum() throws Exception {
        Path file = saved();
        String json = Files.readString(file);
        Files.writeString(file, json.replace("cluster-a", "cluster-x"));

        assertThatThrownBy(() -> store().read(SOURCE, KEY))
                .isInstanceOf(SnapshotRefusedException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("checksum does not match");
    }

    @Test
    void anAlteredRevisionFailsTheChecksum() throws Exception {
        Path file = saved();
        Files.writeString(file, Files.readString(file).replace("\"revision\" : 42", "\"revision\" : 99"));

        assertThatThrownBy(() -> store().read(SOURCE, KEY)).hasMessageContaining("checksum does not match");
    }

    @Test
    void aTruncatedFileIsRefusedAsTruncated() throws Exception {
        Path file = saved();
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));

        assertThatThrownBy(() -> store().read(SOURCE, KEY))
                .isInstanceOf(SnapshotRefusedException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("truncated");
    }

    @Test
    void anEmptyFileIsRefusedAsTruncated() throws Exception {
        Path file = saved();
        Files.write(file, new byte[0]);

        assertThatThrownBy(() -> store().read(SOURCE, KEY)).hasMessageContaining("empty (truncated)");
    }

    @Test
    void garbageIsRefusedAsNotJson() throws Exception {
        Path file = saved();
        Files.write(file, "clusters: {}\n\u0000\u0001".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> store().read(SOURCE, KEY))
                .isInstanceOf(SnapshotRefusedException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("not JSON");
    }

    @Test
    void aFileWithoutItsChecksumIsRefused() throws Exception {
        Path file = saved();
        Files.writeString(file, Files.readString(file).replaceAll("\"sha256\" : \"[0-9a-f]+\",", ""));

        assertThatThrownBy(() -> store().read(SOURCE, KEY)).hasMessageContaining("it has no 'sha256'");
    }

    @Test
    void aDirectoryOfAnotherUserIsRefusedForWritingAndReading() throws Exception {
        Path file = saved();
        Path directory = file.getParent();
        UserPrincipal nobody = directory.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        // Only root may give a directory away; as another user the case cannot be built here.
        boolean root = "root".equals(System.getProperty("user.name"));
        if ("true".equals(System.getenv("CI"))) {
            assertThat(root).as("CI runs as root, which this case needs to chown the directory").isTrue();
        }
        assumeTrue(root, "needs root to chown the directory");
        Files.setOwner(directory, nobody);

        assertThatThrownBy(() -> store().save(ConfigDocument.fresh(SOURCE, KEY, 43, DOCUMENT)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("snapshot directory " + directory + " belongs to nobody");
        assertThatThrownBy(() -> store().read(SOURCE, KEY))
                .isInstanceOf(SnapshotRefusedException.class)
                .hasMessageContaining("belongs to nobody");
    }

    @Test
    void theDeploymentDirectoryComesFromThePropertyAndOffTurnsItOff() {
        String before = System.getProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY);
        try {
            System.setProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY, "/var/lib/lanemq/snapshots");
            assertThat(ConfigSnapshotStore.deploymentDirectory()).contains(Path.of("/var/lib/lanemq/snapshots"));
            System.setProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY, "off");
            assertThat(ConfigSnapshotStore.deploymentDirectory()).isEmpty();
            System.clearProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY);
            assertThat(ConfigSnapshotStore.deploymentDirectory()).as("per user, under the temporary directory")
                    .contains(Path.of(System.getProperty("java.io.tmpdir"), "lanemq-snapshots-" + System.getProperty("user.name")));
        } finally {
            if (before == null) {
                System.clearProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY);
            } else {
                System.setProperty(ConfigSnapshotStore.DIRECTORY_PROPERTY, before);
            }
        }
    }
}
