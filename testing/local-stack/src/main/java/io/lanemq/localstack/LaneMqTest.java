package io.lanemq.localstack;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test class against the embedded dual-IDC platform: {@link LocalPlatformExtension} starts two RocketMQ
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
}
