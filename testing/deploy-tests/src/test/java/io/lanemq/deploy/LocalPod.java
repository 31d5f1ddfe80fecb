package io.lanemq.deploy;

import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One workload of the manifests started on this machine with exactly the container's args and env, as a kubelet
 * would start it, but for what cannot be the same here, each replaced explicitly:
 * <ul>
 *   <li>cluster-internal addresses ({@code rocketmq-namesrv.idc-a.svc:9876}) become the local stack's, through the
 *       one table the caller gives (the same table rewrites the ConfigMap's platform.yaml);</li>
 *   <li>every container port becomes a free port of this machine (the pods share its network), in the one
 *       argument that binds it;</li>
 *   <li>volumes become directories: a ConfigMap's or Secret's items are files written from the given contents,
 *       emptyDir and claim templates are empty directories the pod's user owns.</li>
 * </ul>
 * Under {@link Mode#IMAGE} the image's layers are the root file system, mounted read-only when the container asks
 * for it, with the volumes bind-mounted at their mountPaths (so the args keep their paths), the manifest's memory
 * limit as a memory cgroup the JVM sees, its own /proc (the entrypoint is PID 1), the host's /dev/null, /dev/zero,
 * /dev/random, /dev/urandom, /etc/hosts and /etc/resolv.conf as a runtime provides them, and the entrypoint run as
 * the pod's runAsUser. Under {@link Mode#JAR} (no image or no root here) the module's executable jar runs in a
 * child JVM, and an argument's path under a mountPath names the volume's directory instead.
 */
final class LocalPod implements AutoCloseable {
    enum Mode { IMAGE, JAR }

    /** What the pod's volumes and env hold: ConfigMap and Secret contents by name, then key. */
    record Sources(Map<String, Map<String, byte[]>> configMaps, Map<String, Map<String, byte[]>> secrets) {
    }

    private static final List<String> DEVICES = List.of("/dev/null", "/dev/zero", "/dev/random", "/dev/urandom");
    private static final List<String> RUNTIME_FILES = List.of("/etc/hosts", "/etc/resolv.conf");

    final Workload workload;
    private final Mode mode;
    private final Path dir;
    private final Map<String, Path> volumeDirs = new LinkedHashMap<>();
    private final Map<Integer, Integer> ports = new LinkedHashMap<>();
    final List<String> args;
    final Map<String, String> env;
    private final Path output;
    private Process process;
    private Path cgroup;

    /**
     * @param dir    the pod's own directory (volumes, root file system)
     * @param output where the service's stdout and stderr go
     */
    LocalPod(Workload workload, Mode mode, Path dir, Path output, Map<String, String> addresses, Sources sources)
            throws IOException {
        this.workload = workload;
        this.mode = mode;
        this.dir = Files.createDirectories(dir);
        this.output = output;
        for (ContainerPort port : workload.container().getPorts()) {
            ports.put(port.getContainerPort(), freePort());
        }
        for (VolumeMount mount : workload.container().getVolumeMounts()) {
            volumeDirs.put(mount.getMountPath(), volumeDir(mount.getName(), sources));
        }
        this.args = substitute(workload.container().getArgs(), addresses);
        this.env = env(sources);
    }

    /** Where the container's port is reached on this machine. */
    URI http(String portName) {
        int containerPort = workload.container().getPorts().stream().filter(p -> portName.equals(p.getName()))
                .findFirst().orElseThrow(() -> new AssertionError(workload.owner() + " has no port " + portName))
                .getContainerPort();
        return URI.create("http://127.0.0.1:" + ports.get(containerPort));
    }

    void start(Optional<OciImage> image) throws IOException, InterruptedException {
        List<String> command = mode == Mode.IMAGE ? imageCommand(image.orElseThrow()) : jarCommand();
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        // The runtime's environment: the image's, then the container's env over it; nothing of this JVM's.
        builder.environment().clear();
        if (mode == Mode.JAR) {
            builder.environment().put("PATH", System.getenv("PATH"));
        } else {
            image.orElseThrow().env().forEach(entry -> builder.environment()
                    .put(entry.substring(0, entry.indexOf('=')), entry.substring(entry.indexOf('=') + 1)));
        }
        builder.environment().putAll(env);
        process = builder.start();
    }

    /** The manifest's memory limit when the service runs in a memory cgroup of that size, which its JVM sees. */
    Optional<Long> memoryLimit() throws IOException {
        return cgroup == null ? Optional.empty()
                : Optional.of(Long.parseLong(Files.readString(cgroup.resolve("memory.limit_in_bytes")).strip()));
    }

    boolean alive() {
        return process.isAlive();
    }

    /** SIGTERM to the service itself (under {@link Mode#IMAGE} the entrypoint, PID 1 of its namespace). */
    void terminate() {
        ProcessHandle service = mode == Mode.JAR ? process.toHandle()
                : process.toHandle().children().findFirst().orElseThrow(() -> new AssertionError(
                        workload.owner() + ": the entrypoint is not running under unshare; output:\n" + output()));
        if (!service.destroy()) {
            throw new AssertionError("cannot send SIGTERM to " + workload.owner() + " (pid " + service.pid() + ")");
        }
    }

    boolean awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    int exitCode() {
        return process.exitValue();
    }

    String output() {
        try {
            return Files.readString(output, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + output + ": " + e + ")";
        }
    }

    /** Kills what is still running (SIGKILL, as the kubelet's last resort) and removes the memory cgroup. */
    @Override
    public void close() throws Exception {
        if (process != null) {
            List<ProcessHandle> all = new ArrayList<>(process.toHandle().descendants().toList());
            all.add(process.toHandle());
            all.forEach(ProcessHandle::destroyForcibly);
            for (ProcessHandle handle : all) {
                handle.onExit().get(10, TimeUnit.SECONDS);
            }
        }
        if (cgroup != null) {
            // cgroup v1 refuses the rmdir for a moment after its last task exited.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                try {
                    Files.deleteIfExists(cgroup);
                    break;
                } catch (java.nio.file.FileSystemException busy) {
                    if (System.nanoTime() > deadline) {
                        throw busy;
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------

    private List<String> substitute(List<String> manifestArgs, Map<String, String> addresses) {
        List<String> result = new ArrayList<>();
        Map<Integer, Integer> unbound = new LinkedHashMap<>(ports);
        for (String arg : manifestArgs) {
            String value = arg;
            for (Map.Entry<String, String> address : addresses.entrySet()) {
                value = value.replace(address.getKey(), address.getValue());
            }
            for (Map.Entry<Integer, Integer> port : ports.entrySet()) {
                if (value.endsWith("=0.0.0.0:" + port.getKey())) {
                    value = value.substring(0, value.lastIndexOf(':') + 1) + port.getValue();
                    unbound.remove(port.getKey());
                }
            }
            if (mode == Mode.JAR) {
                value = underVolumeDir(value);
            }
            result.add(value);
        }
        if (!unbound.isEmpty()) {
            throw new AssertionError(workload.owner() + ": no argument binds container port(s) " + unbound.keySet()
                    + " on 0.0.0.0: " + manifestArgs);
        }
        return result;
    }

    /** {@code --x=/etc/lanemq/tls/proxy.p12} with /etc/lanemq/tls mounted from dir/tls becomes {@code --x=dir/tls/proxy.p12}. */
    private String underVolumeDir(String arg) {
        for (Map.Entry<String, Path> volume : volumeDirs.entrySet()) {
            String mountPath = volume.getKey();
            int at = arg.indexOf(mountPath);
            if (at >= 0 && (arg.length() == at + mountPath.length() || arg.charAt(at + mountPath.length()) == '/')) {
                return arg.substring(0, at) + volume.getValue() + arg.substring(at + mountPath.length());
            }
        }
        return arg;
    }

    private Map<String, String> env(Sources sources) {
        Map<String, String> values = new LinkedHashMap<>();
        for (EnvVar var : workload.container().getEnv()) {
            if (var.getValue() != null) {
                values.put(var.getName(), var.getValue());
            } else if (var.getValueFrom() != null && var.getValueFrom().getSecretKeyRef() != null) {
                var ref = var.getValueFrom().getSecretKeyRef();
                values.put(var.getName(), new String(item(sources.secrets(), "Secret", ref.getName(), ref.getKey()),
                        StandardCharsets.UTF_8));
            } else if (var.getValueFrom() != null && var.getValueFrom().getConfigMapKeyRef() != null) {
                var ref = var.getValueFrom().getConfigMapKeyRef();
                values.put(var.getName(), new String(item(sources.configMaps(), "ConfigMap", ref.getName(), ref.getKey()),
                        StandardCharsets.UTF_8));
            } else {
                throw new AssertionError(workload.owner() + ": env " + var.getName() + " has a source this test cannot give");
            }
        }
        return values;
    }

    private byte[] item(Map<String, Map<String, byte[]>> all, String kind, String name, String key) {
        byte[] value = all.getOrDefault(name, Map.of()).get(key);
        if (value == null) {
            throw new AssertionError(workload.owner() + " uses " + kind + " " + name + " key " + key
                    + ", which the test was given no value for");
        }
        return value;
    }

    private Path volumeDir(String name, Sources sources) throws IOException {
        Path volumeDir = Files.createDirectories(dir.resolve("volumes").resolve(name));
        Volume volume = workload.pod().getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst().orElse(null);
        if (volume == null && workload.claimTemplates().contains(name) || volume != null && volume.getEmptyDir() != null) {
            // A fresh claim (fsGroup) or emptyDir (world-writable, as the kubelet makes it): the pod's user writes there.
            Files.setPosixFilePermissions(volumeDir, PosixFilePermissions.fromString("rwxrwxrwx"));
            return volumeDir;
        }
        if (volume == null) {
            throw new AssertionError(workload.owner() + " mounts " + name + ", neither a volume nor a claim template");
        }
        String kind = volume.getConfigMap() != null ? "ConfigMap" : volume.getSecret() != null ? "Secret" : null;
        if (kind == null) {
            throw new AssertionError(workload.owner() + " volume " + name + " is of a kind this test cannot give");
        }
        String source = volume.getConfigMap() != null ? volume.getConfigMap().getName() : volume.getSecret().getSecretName();
        List<KeyToPath> items = volume.getConfigMap() != null ? volume.getConfigMap().getItems() : volume.getSecret().getItems();
        for (KeyToPath item : items) {
            Path file = volumeDir.resolve(item.getPath());
            Files.createDirectories(file.getParent());
            Files.write(file, item(kind.equals("Secret") ? sources.secrets() : sources.configMaps(), kind, source, item.getKey()));
            // 0644, the kubelet's defaultMode for both kinds.
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        }
        return volumeDir;
    }

    /** {@code java -jar} on the module's executable jar (the proxy's Spring Boot jar, the others' shaded jar). */
    private List<String> jarCommand() throws IOException {
        Path target = ContainerImagesTest.Image.deployedAs(workload.image()).tar().getParent();
        String module = target.getParent().getFileName().toString();
        Path jar;
        try (var files = Files.list(target)) {
            jar = files.filter(f -> f.getFileName().toString().equals(module + ".jar")
                    || f.getFileName().toString().matches(java.util.regex.Pattern.quote(module) + "-.*-exec\\.jar"))
                    .findFirst().orElseThrow(() -> new AssertionError("no executable jar of " + module + " in " + target
                            + ": build it with mvn package"));
        } catch (java.nio.file.NoSuchFileException e) {
            throw new AssertionError(target + " is missing: build " + module + " with mvn package", e);
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jar.toString()));
        command.addAll(args);
        return command;
    }

    /**
     * unshare (own mount and PID namespaces) runs a shell that sets up the root file system's mounts, then execs
     * chroot as the pod's user into the image's entrypoint with the args as they are: the service is PID 1.
     */
    private List<String> imageCommand(OciImage image) throws IOException, InterruptedException {
        Path rootfs = dir.resolve("rootfs");
        image.unpackTo(rootfs);
        PodSecurityContext security = workload.pod().getSecurityContext();
        long user = security.getRunAsUser();
        long group = security.getRunAsGroup();
        StringBuilder script = new StringBuilder("set -e\n");
        cgroup = memoryCgroup();
        if (cgroup != null) {
            script.append("echo $$ > ").append(cgroup.resolve("cgroup.procs")).append('\n');
        }
        String r = rootfs.toString();
        List<String> mountPoints = new ArrayList<>(DEVICES);
        mountPoints.addAll(RUNTIME_FILES);
        for (String file : mountPoints) {
            Path target = rootfs.resolve(file.substring(1));
            Files.createDirectories(target.getParent());
            if (!Files.exists(target)) {
                Files.createFile(target);
            }
        }
        for (String mountPath : volumeDirs.keySet()) {
            Files.createDirectories(rootfs.resolve(mountPath.substring(1)));
        }
        Files.createDirectories(rootfs.resolve("proc"));
        // The JVM (17) reads a v1 memory limit only when cpu, cpuacct and cpuset are mounted too: this process's own.
        Map<Path, Path> cgroupMounts = new LinkedHashMap<>();
        if (cgroup != null) {
            cgroupMounts.put(cgroup, rootfs.resolve("sys/fs/cgroup/memory"));
            for (String controller : List.of("cpu", "cpuacct", "cpuset")) {
                Path own = ownCgroup(controller).map(path -> Path.of("/sys/fs/cgroup", controller, path.substring(1)))
                        .filter(Files::isDirectory).orElseThrow(() -> new AssertionError("no cgroup v1 " + controller
                                + " hierarchy here, which the JVM needs mounted to read the memory limit"));
                cgroupMounts.put(own, rootfs.resolve("sys/fs/cgroup/" + controller));
            }
        }
        for (Path target : cgroupMounts.values()) {
            Files.createDirectories(target);
        }
        script.append("/usr/bin/mount --bind ").append(r).append(' ').append(r).append('\n');
        if (Boolean.TRUE.equals(workload.container().getSecurityContext().getReadOnlyRootFilesystem())) {
            script.append("/usr/bin/mount -o remount,bind,ro ").append(r).append('\n');
        }
        for (String file : mountPoints) {
            script.append("/usr/bin/mount --bind ").append(file).append(' ').append(r).append(file).append('\n');
        }
        for (VolumeMount mount : workload.container().getVolumeMounts()) {
            String target = r + mount.getMountPath();
            script.append("/usr/bin/mount --bind ").append(volumeDirs.get(mount.getMountPath())).append(' ').append(target).append('\n');
            if (Boolean.TRUE.equals(mount.getReadOnly())) {
                script.append("/usr/bin/mount -o remount,bind,ro ").append(target).append('\n');
            }
        }
        for (Map.Entry<Path, Path> mount : cgroupMounts.entrySet()) {
            script.append("/usr/bin/mount --bind ").append(mount.getKey()).append(' ').append(mount.getValue()).append('\n');
            script.append("/usr/bin/mount -o remount,bind,ro ").append(mount.getValue()).append('\n');
        }
        script.append("/usr/bin/mount -t proc proc ").append(r).append("/proc\n");
        String groups = security.getFsGroup() != null ? " --groups=" + security.getFsGroup() : "";
        script.append("exec /usr/sbin/chroot --userspec=").append(user).append(':').append(group).append(groups)
                .append(' ').append(r).append(" \"$@\"\n");
        List<String> command = new ArrayList<>(List.of("/usr/bin/unshare", "--mount", "--pid", "--fork",
                "/usr/bin/sh", "-c", script.toString(), "sh"));
        command.addAll(image.entrypoint());
        command.addAll(args);
        return command;
    }

    /**
     * A memory cgroup (v1, this machine's kind) limited to the container's memory limit, made below the one this
     * test runs in; null when the container sets none or no v1 memory hierarchy is writable here.
     */
    private Path memoryCgroup() throws IOException {
        var limits = workload.container().getResources() == null ? null : workload.container().getResources().getLimits();
        if (limits == null || !limits.containsKey("memory")) {
            return null;
        }
        long bytes = io.fabric8.kubernetes.api.model.Quantity.getAmountInBytes(limits.get("memory")).longValueExact();
        Optional<String> own = ownCgroup("memory");
        Path hierarchy = Path.of("/sys/fs/cgroup/memory");
        if (own.isEmpty() || !Files.isWritable(hierarchy.resolve(own.get().substring(1)))) {
            return null;
        }
        Path cgroupDir = hierarchy.resolve(own.get().substring(1)).resolve("lanemq-" + dir.getFileName() + "-" + ProcessHandle.current().pid());
        Files.createDirectories(cgroupDir);
        Files.writeString(cgroupDir.resolve("memory.limit_in_bytes"), Long.toString(bytes));
        return cgroupDir;
    }

    /** This process's cgroup in a v1 hierarchy ({@code /proc/self/cgroup}), e.g. {@code /} or {@code /a/b}. */
    private static Optional<String> ownCgroup(String controller) throws IOException {
        return Files.readAllLines(Path.of("/proc/self/cgroup")).stream()
                .map(line -> line.split(":", 3)).filter(f -> f.length == 3 && List.of(f[1].split(",")).contains(controller))
                .map(f -> f[2]).findFirst();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port: " + e.getMessage(), e);
        }
    }
}
