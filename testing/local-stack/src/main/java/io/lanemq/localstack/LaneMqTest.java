package io.lanemq.localstack;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the embedded dual-IDC platform (the default, {@link Mode#EMBEDDED}), or against the SDK's
 * in-memory binding ({@link Mode#IN_MEMORY}, see {@link InMemoryPlatform}). Embedded: {@link LocalPlatformExtension} starts two RocketMQ
 * clusters once per test JVM, declares {@link #topics()}, and sets {@code lanemq.config-location} so a Spring Boot
 * test's context, or a client the test builds, reads that platform. Put it before {@code @SpringBootTest}, so the
 * platform is up when the context starts.
 *
 * <pre>{@code
 * @LaneMqTest(topics = "order-paid:billing,audit")
 * @SpringBootTest(properties = "lanemq.application-name=checkout")
 * class CheckoutTest {
 *     @Autowired LaneMqTemplate template;
 *
 *     @Test
 *     void paidOrdersReachBilling(LocalPlatform platform) { ... }
 * }
 * }</pre>
 *
 * <p>In memory, the same application starts and exchanges messages in milliseconds, through the same starter, with
 * two clusters a test can make fail; what it cannot show is RocketMQ's own behaviour (brokers, offsets, timing):
 * <pre>{@code
 * @LaneMqTest(mode = LaneMqTest.Mode.IN_MEMORY, topics = "order-paid:billing")
 * @SpringBootTest(properties = "lanemq.application-name=checkout")
 * class CheckoutUnitTest {
 *     @Test
 *     void paidOrdersReachBillingWhileIdcBFails(InMemoryPlatform platform) {
 *         platform.clusterB().failSends();
 *         ...
 *     }
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(LocalPlatformExtension.class)
public @interface LaneMqTest {
    /**
     * Logic topics to declare, each {@code "topic"} or {@code "topic:group1,group2"} with its consumer groups; on
     * both clusters, 4 queues, sends split evenly. Topics of every test class of the JVM stay declared.
     */
    String[] topics() default {};

    /**
     * True to declare the delay section (its internal topic on both clusters), so delayed sends and cancels have
     * somewhere to go; the test starts the delay server itself (module delay-server), on
     * {@code lanemq.config-location}.
     */
    boolean delay() default false;

    /** Where the test's messages go: real RocketMQ brokers (the default) or the in-memory binding. */
    Mode mode() default Mode.EMBEDDED;

    /** See {@link #mode()}. */
    enum Mode {
        /** Two real RocketMQ clusters in child JVMs, shared by the test JVM: for integration tests. */
        EMBEDDED,
        /**
         * The in-memory binding's two clusters ({@link InMemoryPlatform}): for unit-level tests of an application,
         * in milliseconds; {@link #delay()} does not apply (there is no delay server).
         */
        IN_MEMORY
    }
}
