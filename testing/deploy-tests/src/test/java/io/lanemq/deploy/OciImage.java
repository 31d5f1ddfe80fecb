package io.lanemq.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;

/**
 * One image as Jib's {@code buildTar} writes it (an OCI layout in a tar): its manifest, its config and its layers,
 * which {@link #unpackTo} lays out as the root file system a container runtime would give the entrypoint.
 */
final class OciImage {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, byte[]> blobs;
    final JsonNode manifest;
    /** The image config's {@code config} section: Entrypoint, Env, User, ExposedPorts. */
    final JsonNode config;

    private OciImage(Map<String, byte[]> blobs) throws IOException {
        this.blobs = blobs;
        JsonNode index = JSON.readTree(blobs.get("index.json"));
        this.manifest = JSON.readTree(blob(index.path("manifests").get(0).path("digest").asText()));
        this.config = JSON.readTree(blob(manifest.path("config").path("digest").asText())).path("config");
    }

    static OciImage read(Path tar) throws IOException {
        Map<String, byte[]> blobs = new HashMap<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(tar))) {
            TarArchiveEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                if (entry.isFile()) {
                    blobs.put(entry.getName(), in.readAllBytes());
                }
            }
        }
        return new OciImage(blobs);
    }

    List<String> entrypoint() {
        return strings(config.path("Entrypoint"));
    }

    /** {@code NAME=value} entries, as the runtime sets them before the pod's own. */
    List<String> env() {
        return strings(config.path("Env"));
    }

    List<byte[]> layers() {
        List<byte[]> layers = new ArrayList<>();
        manifest.path("layers").forEach(layer -> layers.add(blob(layer.path("digest").asText())));
        return layers;
    }

    /** Every path in every layer, without a leading {@code ./} or {@code /}. */
    List<String> files() throws IOException {
        List<String> names = new ArrayList<>();
        for (byte[] layer : layers()) {
            try (InputStream raw = new ByteArrayInputStream(layer);
                 TarArchiveInputStream in = new TarArchiveInputStream(new GzipCompressorInputStream(raw))) {
                TarArchiveEntry entry;
                while ((entry = in.getNextEntry()) != null) {
                    names.add(entry.getName().replaceFirst("^\\./", "").replaceFirst("^/", ""));
                }
            }
        }
        return names;
    }

    /** Extracts the layers in order with the system's tar (owners and modes kept: this runs as root). */
    void unpackTo(Path rootfs) throws IOException, InterruptedException {
        Files.createDirectories(rootfs);
        Path file = rootfs.resolveSibling(rootfs.getFileName() + "-layer.tgz");
        for (byte[] layer : layers()) {
            Files.write(file, layer);
            Process tar = new ProcessBuilder("tar", "-xzf", file.toString(), "-C", rootfs.toString())
                    .redirectErrorStream(true).start();
            String output = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!tar.waitFor(60, TimeUnit.SECONDS) || tar.exitValue() != 0) {
                throw new IOException("tar could not extract a layer into " + rootfs + ": " + output);
            }
        }
        Files.delete(file);
    }

    private byte[] blob(String digest) {
        byte[] blob = blobs.get("blobs/sha256/" + digest.substring("sha256:".length()));
        if (blob == null) {
            throw new IllegalStateException("the image has no blob " + digest);
        }
        return blob;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(e -> values.add(e.asText()));
        return values;
    }
}
