package io.lanemq.layers;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.lanemq.api.MessagingClient;
import io.lanemq.api.spi.ClientProvider;
import io.lanemq.core.client.ConfigStaleness;
import io.lanemq.core.metrics.SdkMetrics;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layer rules of the design, on the production classes of every module (this module depends on all of them).
 * A rule broken names the class and the dependency at fault.
 */
class LayerRulesTest {
    private static JavaClasses production;

    @BeforeAll
    static void importProductionClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.lanemq");
        // A rule over an empty import passes whatever the code does: make sure every module was read.
        for (String layer : new String[] {"io.lanemq.api", "io.lanemq.support", "io.lanemq.config", "io.lanemq.core",
                "io.lanemq.rocketmq", "io.lanemq.grpc.server", "io.lanemq.proxy", "io.lanemq.delay", "io.lanemq.dialtest", "io.lanemq.testkit",
                "io.lanemq.console"}) {
            assertThat(production.stream().anyMatch(c -> c.getPackageName().startsWith(layer))).as(layer).isTrue();
        }
    }

    @Test
    void theApiDependsOnTheJdkOnly() {
        classes().that().resideInAPackage("io.lanemq.api..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "io.lanemq.api..")
                .check(production);
    }

    @Test
    void sharedUtilitiesDependOnTheJdkAndSlf4jOnly() {
        classes().that().resideInAPackage("io.lanemq.support..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "org.slf4j..", "io.lanemq.support..")
                .check(production);
        classes().that().resideInAPackage("io.lanemq.failover..")
                .should().onlyDependOnClassesThat()
                .resideInAnyPackage("java..", "org.slf4j..", "io.lanemq.support..", "io.lanemq.failover..")
                .check(production);
    }

    /**
     * RocketMQ is one binding among possible others: only the binding, the testkit that runs brokers, the dial test
     * (which probes brokers below the SDK on purpose) and the benchmarks (whose baselines are raw RocketMQ clients)
     * may see its classes.
     */
    @Test
    void onlyTheBindingAndToolsBelowTheSdkImportRocketMq() {
        noClasses().that().resideOutsideOfPackages("io.lanemq.rocketmq..", "io.lanemq.testkit..", "io.lanemq.dialtest..",
                        "io.lanemq.benchmarks..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.rocketmq..")
                .check(production);
    }

    /**
     * The gRPC server conventions serve the consumer proxy and lane forwarding alike: they know gRPC, the wire
     * protocol's headers and the shared utilities, and none of their users.
     */
    @Test
    void theGrpcServerConventionsKnowNoneOfTheirUsers() {
        classes().that().resideInAPackage("io.lanemq.grpc.server..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax.net.ssl..", "io.grpc..",
                        "org.slf4j..", "io.lanemq.support..", "io.lanemq.proxy.protocol..", "io.lanemq.grpc.server..")
                .check(production);
    }

    /** The consumer proxy takes only the SDK's meters and its staleness reading from the core, not its clients. */
    @Test
    void theConsumerProxyUsesOnlyTheCoresMetricsAndStaleness() {
        noClasses().that().resideInAPackage("io.lanemq.proxy..")
                .should().dependOnClassesThat(resideInAPackage("io.lanemq.core..")
                        .and(not(belongToAnyOf(SdkMetrics.class, ConfigStaleness.class))))
                .check(production);
    }

    @Test
    void noModuleButTheCoreUsesItsInternals() {
        noClasses().that().resideOutsideOfPackage("io.lanemq.core..")
                .should().dependOnClassesThat().resideInAPackage("io.lanemq.core.internal..")
                .check(production);
    }

    @Test
    void thePlatformConfigurationKnowsNothingOfItsUsers() {
        noClasses().that().resideInAPackage("io.lanemq.config..")
                .should().dependOnClassesThat().resideInAnyPackage("io.lanemq.core..", "io.lanemq.rocketmq..",
                        "io.lanemq.proxy..", "io.lanemq.delay..", "io.lanemq.dialtest..", "io.lanemq.spring..",
                        "io.lanemq.console..")
                .check(production);
    }

    /**
     * The console is a service beside the platform, not a client of it: it edits the configuration document and
     * reads other components' metrics over HTTP, so it needs neither the SDK, a binding nor another service's classes.
     */
    @Test
    void theConsoleUsesThePlatformConfigurationOnly() {
        noClasses().that().resideInAPackage("io.lanemq.console..")
                .should().dependOnClassesThat().resideInAnyPackage("io.lanemq.core..", "io.lanemq.rocketmq..",
                        "io.lanemq.proxy..", "io.lanemq.delay..", "io.lanemq.dialtest..", "io.lanemq.spring..",
                        "io.lanemq.localstack..", "io.lanemq.testkit..", "org.apache.rocketmq..")
                .check(production);
    }

    @Test
    void theCoreKnowsNoBindingAndNoService() {
        noClasses().that().resideInAPackage("io.lanemq.core..")
                .should().dependOnClassesThat().resideInAnyPackage("io.lanemq.rocketmq..", "io.lanemq.delay..",
                        "io.lanemq.dialtest..", "io.lanemq.spring..", "io.lanemq.localstack..", "io.lanemq.testkit..")
                .check(production);
    }

    /**
     * One edge is by design: the API's entry point ({@code MessagingClient.create}) finds its implementation through
     * the SPI's ServiceLoader interface, whose methods speak the API's types.
     */
    @Test
    void noPackageCycles() {
        slices().matching("io.lanemq.(**)").should().beFreeOfCycles()
                .ignoreDependency(MessagingClient.class, ClientProvider.class)
                .check(production);
    }
}
