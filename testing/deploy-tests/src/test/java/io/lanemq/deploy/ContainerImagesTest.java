package io.lanemq.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.lanemq.configtool.ConfigTool;
import io.lanemq.console.ConsoleApplication;
import io.lanemq.delay.server.DelayServerMain;
import io.lanemq.proxy.boot.ConsumerProxyApplication;
import io.lanemq.testkit.RepoRoot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each service's image as Jib wrote it ({@code <module>/target/jib-image.tar}, an OCI layout; built by the
 * {@code images} profile, on in CI): its entrypoint runs the service's main class with container-aware JVM flags,
 * as the non-root user, exposing exactly the ports its Kubernetes manifest declares, with nothing secret in its
 * layers or environment. The layers are then unpacked and the entrypoint really run under chroot (with its own
 * /proc, as a container runtime gives it) as the image's user, which needs root, unshare and chroot: without them
 * (or without the images) the test skips on a developer's machine and fails under CI=true.
 */
class ContainerImagesTest {
    private static final Pattern SECRET_FILE = Pattern.compile(".*\\.(p12|pem|key|jks|keystore)$|.*tokens\\.properties$");
    private static final String USER = "65532:65532";

    enum Image {
        CONSUMER_PROXY("services/consumer-proxy", ConsumerProxyApplication.class.getName(), "lanemq/consumer-proxy"),
        DELAY_SERVER("services/delay-server", DelayServerMain.class.getName(), "lanemq/delay-server"),
        DIAL_TEST("services/dial-test", "io.lanemq.dialtest.DialTestMain", "lanemq/dial-test"),
        CONSOLE("services/platform-console", ConsoleApplication.class.getName(), "lanemq/platform-console"),
        CONFIG_TOOL("services/config-tool", ConfigTool.class.getName(), null);

        final String module;
        final String mainClass;
        final String deployedAs;

        Image(String module, String mainClass, String deployedAs) {
            this.module = module;
            this.mainClass = mainClass;
            this.deployedAs = deployedAs;
        }

        static Image deployedAs(String repository) {
            return Stream.of(values()).filter(i -> repository.equals(i.deployedAs)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no image is deployed as " + repository));
        }

        Path tar() {
            return RepoRoot.resolve(module, "target", "jib-image.tar");
        }
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(Image.class)
    void theImageRunsItsMainAsNonRootWithTheManifestsPortsAndNoSecrets(Image image) throws Exception {
        Path tar = image.tar();
        require(Files.isRegularFile(tar), tar + " is missing: build it with mvn -Pimages package (CI does)");
        OciImage oci = OciImage.read(tar);
        JsonNode config = oci.config;
        System.out.printf("[ContainerImagesTest] %s: %d MB (%d layers)%n", image.module, Files.size(tar) >> 20,
                oci.layers().size());

        List<String> entrypoint = oci.entrypoint();
        assertThat(entrypoint).as("entrypoint").startsWith("java").contains(image.mainClass)
                .anyMatch(flag -> flag.startsWith("-XX:MaxRAMPercentage="))
                .anyMatch(flag -> flag.equals("-XX:+ExitOnOutOfMemoryError"));
        assertThat(entrypoint.get(entrypoint.size() - 1)).as("the main class is last").isEqualTo(image.mainClass);
        assertThat(config.path("User").asText()).as("user").isEqualTo(USER);

        Set<Integer> exposed = new TreeSet<>();
        config.path("ExposedPorts").fieldNames().forEachRemaining(p -> exposed.add(Integer.parseInt(p.replace("/tcp", ""))));
        assertThat(exposed).as("the ports the Kubernetes manifest declares for " + image.deployedAs)
                .isEqualTo(manifestPorts(image.deployedAs));

        assertThat(oci.env()).as("no secret in the environment").noneMatch(e -> e.toUpperCase().matches(".*(PASSWORD|TOKEN|SECRET).*"));
        List<String> files = oci.files();
        assertThat(files).as("no key store, key, certificate or token file in the layers")
                .noneMatch(f -> SECRET_FILE.matcher(f).matches());
        assertThat(files).as("the classpath file the entrypoint reads").contains("app/jib-classpath-file");

        runUnderChroot(image, oci, entrypoint);
    }

    /** The entrypoint, unchanged but for arguments that make the service answer and stop at once. */
    private void runUnderChroot(Image image, OciImage oci, List<String> entrypoint)
            throws Exception {
        boolean root = "root".equals(System.getProperty("user.name"));
        boolean tools = Stream.of("/usr/bin/unshare", "/usr/sbin/chroot", "/usr/bin/chroot").filter(p -> Files.isExecutable(Path.of(p)))
                .count() >= 2;
        require(root && tools, "running the image needs root, unshare and chroot (user " + System.getProperty("user.name") + ")");
        Path rootfs = dir.resolve("rootfs");
        oci.unpackTo(rootfs);
        Files.createDirectories(rootfs.resolve("proc"));
        List<String> command = new ArrayList<>(List.of("unshare", "--mount", "--pid", "--fork",
                "--mount-proc=" + rootfs.resolve("proc"), "chroot", "--userspec=" + USER, rootfs.toString(),
                "/opt/java/bin/java"));
        command.addAll(entrypoint.subList(1, entrypoint.size()));
        String expected;
        int exit;
        if (image == Image.CONSUMER_PROXY) {
            // Spring Boot up to property validation: no platform configuration given, so it stops naming it.
            command.add("--lanemq.proxy.plaintext=true");
            expected = "lanemq.proxy.config-location";
            exit = 1;
        } else if (image == Image.CONSOLE) {
            // Spring Boot up to property validation: no etcd and no key store given, so it stops naming a setting.
            expected = "The console's setting lanemq.console.";
            exit = 1;
        } else {
            command.add("--help");
            expected = "Usage:";
            exit = 0;
        }
        long start = System.nanoTime();
        Result result = run(command, 120);
        System.out.printf("[ContainerImagesTest] %s ran under chroot as %s in %d ms, exit %d%n", image.module, USER,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), result.exit);
        assertThat(result.output).as(image.module + " output").contains(expected);
        assertThat(result.exit).as(image.module + " exit code; output:\n" + result.output).isEqualTo(exit);
    }

    record Result(int exit, String output) {
    }

    private static Result run(List<String> command, int timeoutSeconds) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(timeoutSeconds, TimeUnit.SECONDS), "did not end: " + command);
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    private static Set<Integer> manifestPorts(String image) {
        if (image == null) {
            return Set.of();
        }
        Kustomization base = Kustomization.read(KubernetesManifestsTest.BASE);
        Set<Integer> ports = new TreeSet<>();
        KubernetesManifestsTest.parseAll(base.resources).values().forEach(object -> {
            List<Container> containers = object instanceof Deployment d ? d.getSpec().getTemplate().getSpec().getContainers()
                    : object instanceof StatefulSet s ? s.getSpec().getTemplate().getSpec().getContainers() : List.of();
            containers.stream().filter(c -> c.getImage().equals(image))
                    .flatMap(c -> c.getPorts().stream()).map(ContainerPort::getContainerPort).forEach(ports::add);
        });
        assertThat(ports).as(image + " is deployed with ports").isNotEmpty();
        return ports;
    }

    /**
     * What this test needs (the images, root and the tools to run them) skips it on a developer's machine when
     * missing; under CI=true it fails it, so CI never passes a check it did not run.
     */
    private static void require(boolean present, String missing) {
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(present, missing);
        }
        assumeTrue(present, missing);
    }
}
