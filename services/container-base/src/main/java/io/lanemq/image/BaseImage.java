package io.lanemq.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Writes a base image as a {@code docker save} tarball (what Jib reads from a {@code tar://} base): one layer
 * holding a jlink runtime of the JDK running this build in {@code /opt/java}, the shared libraries its binaries
 * load (found with {@code ldd}, copied from the build machine), an {@code /etc/passwd} with the non-root user
 * 65532 and a world-writable {@code /tmp}. No registry and no Docker engine: CI here reaches neither.
 *
 * <p>Deterministic (sorted entries, fixed times and owners), so an unchanged JDK gives the same layer digest and
 * Jib's cache keeps it. Where the JDK has no {@code jmods} (a JRE, or Debian without openjdk-17-jmods), the whole
 * {@code java.home} is copied instead: a bigger image, the same result.
 */
public final class BaseImage {
    /** The modules the services load (Spring's java.beans is in java.desktop; the endpoints' server is jdk.httpserver). */
    static final String MODULES = String.join(",", "java.base", "java.desktop", "java.instrument", "java.logging",
            "java.management", "java.management.rmi", "java.naming", "java.net.http", "java.prefs", "java.rmi",
            "java.scripting", "java.security.jgss", "java.security.sasl", "java.sql", "java.transaction.xa", "java.xml",
            "jdk.crypto.cryptoki", "jdk.crypto.ec", "jdk.httpserver", "jdk.jfr", "jdk.management",
            "jdk.management.agent", "jdk.naming.dns", "jdk.net", "jdk.unsupported", "jdk.zipfs");
    static final int NON_ROOT = 65532;
    private static final Pattern LDD_PATH = Pattern.compile("(/\\S+)\\s+\\(0x");
    /**
     * Natives only a GUI, sound or image I/O loads (java.desktop is in for java.beans): their X11, ALSA and font
     * libraries are left out, 22 of the 28 libraries ldd finds otherwise. Headless AWT still works.
     */
    private static final Set<String> DESKTOP_ONLY = Set.of("libawt_xawt.so", "libsplashscreen.so", "libjsound.so",
            "libjawt.so", "libfontmanager.so", "liblcms.so", "libjavajpeg.so");

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Path work = out.resolveSibling("container-base-work");
        deleteRecursively(work);
        Files.createDirectories(work);
        long start = System.nanoTime();
        Path runtime = runtime(work.resolve("java"));
        Map<String, Path> libraries = libraries(runtime);
        Path layer = work.resolve("layer.tar");
        String diffId = writeLayer(layer, runtime, libraries);
        writeImage(out, layer, diffId);
        System.out.printf("base image %s: %d MB, %d shared libraries, %.1f s%n", out, Files.size(out) >> 20,
                libraries.size(), (System.nanoTime() - start) / 1e9);
        deleteRecursively(work);
    }

    private static Path runtime(Path target) throws IOException {
        Path home = Path.of(System.getProperty("java.home"));
        if (Files.isDirectory(home.resolve("jmods"))) {
            ToolProvider jlink = ToolProvider.findFirst("jlink").orElseThrow(() -> new IllegalStateException("no jlink"));
            StringWriter log = new StringWriter();
            int status = jlink.run(new PrintWriter(log), new PrintWriter(log), "--add-modules", MODULES,
                    "--strip-debug", "--no-man-pages", "--no-header-files", "--compress=2", "--output", target.toString());
            if (status != 0) {
                throw new IllegalStateException("jlink failed (" + status + "): " + log);
            }
            return target;
        }
        return home;
    }

    /** Every shared library a binary of the runtime loads, by the path the loader finds it at. */
    private static Map<String, Path> libraries(Path runtime) throws IOException, InterruptedException {
        List<Path> binaries = new ArrayList<>();
        try (Stream<Path> files = Files.walk(runtime)) {
            files.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".so") || p.getParent().getFileName().toString().equals("bin"))
                    .filter(p -> !DESKTOP_ONLY.contains(p.getFileName().toString()))
                    .forEach(binaries::add);
        }
        Map<String, Path> found = new TreeMap<>();
        for (Path binary : binaries) {
            Process ldd = new ProcessBuilder("ldd", binary.toString()).redirectErrorStream(true).start();
            String output = new String(ldd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            ldd.waitFor();
            Matcher m = LDD_PATH.matcher(output);
            while (m.find()) {
                String path = m.group(1);
                if (!path.startsWith(runtime.toString())) {
                    found.put(path, Path.of(path).toRealPath());
                }
            }
        }
        if (found.keySet().stream().noneMatch(p -> p.contains("ld-linux"))) {
            throw new IllegalStateException("ldd found no dynamic loader for " + runtime + ": " + found);
        }
        return found;
    }

    private static String writeLayer(Path layer, Path runtime, Map<String, Path> libraries) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        try (OutputStream file = Files.newOutputStream(layer);
             DigestOutputStream digest = new DigestOutputStream(file, sha);
             TarArchiveOutputStream tar = new TarArchiveOutputStream(digest)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            Set<String> dirs = new java.util.TreeSet<>();
            Map<String, Object> entries = new TreeMap<>();
            try (Stream<Path> files = Files.walk(runtime)) {
                files.filter(p -> !Files.isDirectory(p)).forEach(p -> entries.put("opt/java/" + runtime.relativize(p), p));
            }
            libraries.forEach((path, real) -> entries.put(path.substring(1), real));
            entries.put("etc/passwd", "root:x:0:0:root:/root:/usr/sbin/nologin\n"
                    + "nonroot:x:" + NON_ROOT + ":" + NON_ROOT + ":nonroot:/home/nonroot:/usr/sbin/nologin\n");
            entries.put("etc/group", "root:x:0:\nnonroot:x:" + NON_ROOT + ":\n");
            entries.put("etc/nsswitch.conf", "passwd: files\ngroup: files\nhosts: files dns\n");
            entries.keySet().forEach(name -> parents(name, dirs));
            dirs.add("tmp");
            dirs.add("home/nonroot");
            for (String dir : dirs) {
                TarArchiveEntry entry = new TarArchiveEntry(dir + "/");
                entry.setMode(dir.equals("tmp") ? 01777 : 0755);
                if (dir.equals("home/nonroot")) {
                    entry.setIds(NON_ROOT, NON_ROOT);
                }
                fixed(entry);
                tar.putArchiveEntry(entry);
                tar.closeArchiveEntry();
            }
            for (Map.Entry<String, Object> e : entries.entrySet()) {
                byte[] text = e.getValue() instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : null;
                Path source = text == null ? (Path) e.getValue() : null;
                TarArchiveEntry entry = new TarArchiveEntry(e.getKey());
                entry.setSize(text != null ? text.length : Files.size(source));
                entry.setMode(text != null ? 0644 : executable(source) ? 0755 : 0644);
                fixed(entry);
                tar.putArchiveEntry(entry);
                if (text != null) {
                    tar.write(text);
                } else {
                    try (InputStream in = Files.newInputStream(source)) {
                        in.transferTo(tar);
                    }
                }
                tar.closeArchiveEntry();
            }
            tar.finish();
        }
        return "sha256:" + HexFormat.of().formatHex(sha.digest());
    }

    private static void writeImage(Path out, Path layer, String diffId) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("architecture", "amd64");
        config.put("os", "linux");
        config.put("config", Map.of("Env", List.of("PATH=/opt/java/bin:/usr/bin:/bin", "JAVA_HOME=/opt/java",
                "LANG=C.UTF-8")));
        config.put("rootfs", Map.of("type", "layers", "diff_ids", List.of(diffId)));
        config.put("history", List.of(Map.of("created_by", "LaneMQ container-base: jlink runtime + shared libraries")));
        byte[] configBytes = json.writeValueAsBytes(config);
        byte[] manifest = json.writeValueAsBytes(List.of(Map.of("Config", "config.json",
                "RepoTags", List.of("lanemq/jre-base:17"), "Layers", List.of("layer.tar"))));
        Files.createDirectories(out.getParent());
        try (TarArchiveOutputStream tar = new TarArchiveOutputStream(Files.newOutputStream(out))) {
            add(tar, "config.json", configBytes);
            add(tar, "manifest.json", manifest);
            TarArchiveEntry entry = new TarArchiveEntry("layer.tar");
            entry.setSize(Files.size(layer));
            fixed(entry);
            tar.putArchiveEntry(entry);
            Files.copy(layer, tar);
            tar.closeArchiveEntry();
            tar.finish();
        }
    }

    private static void add(TarArchiveOutputStream tar, String name, byte[] bytes) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(bytes.length);
        fixed(entry);
        tar.putArchiveEntry(entry);
        tar.write(bytes);
        tar.closeArchiveEntry();
    }

    private static void fixed(TarArchiveEntry entry) {
        entry.setModTime(0L);
        if (entry.getLongUserId() == 0) {
            entry.setUserName("root");
            entry.setGroupName("root");
        }
    }

    private static boolean executable(Path file) throws IOException {
        return Files.getPosixFilePermissions(file).contains(PosixFilePermission.OWNER_EXECUTE);
    }

    private static void parents(String name, Set<String> dirs) {
        int slash = name.lastIndexOf('/');
        while (slash > 0) {
            dirs.add(name.substring(0, slash));
            slash = name.lastIndexOf('/', slash - 1);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    private BaseImage() {
    }
}
