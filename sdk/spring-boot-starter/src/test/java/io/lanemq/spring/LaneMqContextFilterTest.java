package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.ServletWebServerFactoryAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The request-context filter in a real embedded Tomcat on 127.0.0.1, called over HTTP: what
 * {@link MessageContext#current()} is inside a controller for each header combination, that the thread's
 * context is restored after the request, and that a malformed header is answered 400 and counted. Then the
 * auto-configuration's conditions in context runners.
 */
class LaneMqContextFilterTest {
    private static ConfigurableApplicationContext application;
    private static HttpClient http;
    private static URI contextUri;
    private static ContextController controller;
    private static ContextProbe probe;

    @BeforeAll
    static void startServer() {
        application = new SpringApplicationBuilder(WebApplication.class)
                .web(WebApplicationType.SERVLET)
                .properties("spring.main.banner-mode=off", "server.address=127.0.0.1", "server.port=0")
                .run();
        int port = ((ServletWebServerApplicationContext) application).getWebServer().getPort();
        contextUri = URI.create("http://127.0.0.1:" + port + "/context");
        controller = application.getBean(ContextController.class);
        probe = application.getBean(ContextProbe.class);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stopServer() {
        if (application != null) {
            application.close();
        }
    }

    @BeforeEach
    void forgetEarlierRequests() {
        controller.seen.clear();
        probe.after.clear();
    }

    @Test
    void aRequestWithoutHeadersRunsInTheBaseWhateverTheThreadHeldBefore() throws Exception {
        HttpResponse<String> response = get();
        assertThat(response.statusCode()).isEqualTo(200);
        // The probe around the filter leaves a stale lane on the thread: the request must not inherit it.
        assertThat(controller.seen).containsExactly(MessageContext.none());
        assertThat(contextsAfterRequests(1)).as("the thread's context after the request").containsExactly(ContextProbe.STALE);
    }

    @Test
    void theLaneHeaderPutsTheRequestInItsLaneUntilItEnds() throws Exception {
        HttpResponse<String> response = get("X-LaneMQ-Lane", "A.X");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(controller.seen).containsExactly(MessageContext.none().withLane(Lane.of("A.X")));
        assertThat(contextsAfterRequests(1)).containsExactly(ContextProbe.STALE);
    }

    @Test
    void theStressTestHeaderMarksTheRequestWithOrWithoutALane() throws Exception {
        assertThat(get("X-LaneMQ-Stress-Test", "true").statusCode()).isEqualTo(200);
        assertThat(get("X-LaneMQ-Lane", "A", "X-LaneMQ-Stress-Test", "TRUE").statusCode()).isEqualTo(200);
        assertThat(get("X-LaneMQ-Stress-Test", "false").statusCode()).isEqualTo(200);
        assertThat(controller.seen).containsExactly(MessageContext.none().withStressTest(true),
                MessageContext.none().withLane(Lane.of("A")).withStressTest(true), MessageContext.none());
    }

    @Test
    void aMalformedLaneHeaderIsRefusedNamingTheHeaderAndCounted() throws Exception {
        double before = rejected("X-LaneMQ-Lane");

        HttpResponse<String> bad = get("X-LaneMQ-Lane", "A..X");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).startsWith("X-LaneMQ-Lane: ").contains("'A..X'").contains("dot-separated segments");
        assertThat(bad.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type).startsWith("text/plain"));

        HttpResponse<String> empty = get("X-LaneMQ-Lane", "");
        assertThat(empty.statusCode()).isEqualTo(400);
        assertThat(empty.body()).startsWith("X-LaneMQ-Lane: ").contains("must not be empty");

        HttpResponse<String> twice = get("X-LaneMQ-Lane", "A", "X-LaneMQ-Lane", "B");
        assertThat(twice.statusCode()).isEqualTo(400);
        assertThat(twice.body()).isEqualTo("X-LaneMQ-Lane: must appear once, but appeared 2 times");

        assertThat(controller.seen).as("no malformed request reaches the application").isEmpty();
        assertThat(contextsAfterRequests(3)).as("the chain behind the filter is skipped, the thread's context untouched")
                .containsOnly(ContextProbe.STALE);
        assertThat(rejected("X-LaneMQ-Lane") - before).isEqualTo(3);
    }

    @Test
    void aStressTestHeaderOtherThanTrueOrFalseIsRefused() throws Exception {
        double before = rejected("X-LaneMQ-Stress-Test");
        HttpResponse<String> response = get("X-LaneMQ-Lane", "A", "X-LaneMQ-Stress-Test", "yes");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).isEqualTo("X-LaneMQ-Stress-Test: must be true or false");
        assertThat(controller.seen).isEmpty();
        assertThat(rejected("X-LaneMQ-Stress-Test") - before).isEqualTo(1);
    }

    @Test
    void headerNamesComeFromTheProperties() {
        new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqContextAutoConfiguration.class))
                .withPropertyValues("lanemq.context.lane-header=X-Lane", "lanemq.context.stress-test-header=X-Shadow")
                .run(context -> {
                    LaneMqProperties.Context properties = context.getBean(LaneMqProperties.class).getContext();
                    assertThat(properties.headers().laneHeader()).isEqualTo("X-Lane");
                    assertThat(properties.headers().stressTestHeader()).isEqualTo("X-Shadow");
                    assertThat(context).getBean("laneMqContextFilter").isInstanceOf(FilterRegistrationBean.class);
                });
    }

    @Test
    void theFilterIsRegisteredInServletApplicationsOnlyAndCanBeTurnedOff() {
        WebApplicationContextRunner web = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqContextAutoConfiguration.class));
        web.run(context -> {
            FilterRegistrationBean<?> registration = context.getBean("laneMqContextFilter", FilterRegistrationBean.class);
            assertThat(registration.getFilter()).isInstanceOf(LaneMqContextFilter.class);
            assertThat(registration.getOrder()).isEqualTo(LaneMqContextAutoConfiguration.FILTER_ORDER);
        });
        web.withPropertyValues("lanemq.context.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("laneMqContextFilter"));
        web.withPropertyValues("lanemq.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("laneMqContextFilter"));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqContextAutoConfiguration.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("laneMqContextFilter"));
    }

    @Test
    void aBadHeaderNameFailsTheStartupNamingItsProperty() {
        WebApplicationContextRunner web = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(LaneMqContextAutoConfiguration.class));
        web.withPropertyValues("lanemq.context.lane-header=X Lane")
                .run(context -> assertThat(LaneMqAutoConfigurationTest.invalidProperty(context.getStartupFailure()))
                        .hasMessageStartingWith("lanemq.context.lane-header must be an HTTP header name")
                        .hasMessageContaining("'X Lane'"));
        web.withPropertyValues("lanemq.context.stress-test-header=x-lanemq-lane")
                .run(context -> assertThat(LaneMqAutoConfigurationTest.invalidProperty(context.getStartupFailure()).property())
                        .isEqualTo("lanemq.context.stress-test-header"));
    }

    private static HttpResponse<String> get(String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(contextUri).timeout(Duration.ofSeconds(30)).GET();
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * What the probe saw once the starter's filter returned, for the last {@code requests} requests: the client may
     * have the response before the filters around the servlet have unwound, so wait for them.
     */
    private static Queue<MessageContext> contextsAfterRequests(int requests) {
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.after.size() >= requests);
        return probe.after;
    }

    private static double rejected(String header) {
        return application.getBean(MeterRegistry.class).get(StarterMetrics.CONTEXT_REJECTED)
                .tag(StarterMetrics.TAG_HEADER, header).counter().count();
    }

    /** A servlet application with only what a controller needs, plus the starter's request-context filter. */
    @SpringBootConfiguration
    @ImportAutoConfiguration({ServletWebServerFactoryAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
            WebMvcAutoConfiguration.class, LaneMqContextAutoConfiguration.class})
    static class WebApplication {
        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        ContextController contextController() {
            return new ContextController();
        }

        @Bean
        ContextProbe contextProbe() {
            return new ContextProbe();
        }

        @Bean
        FilterRegistrationBean<ContextProbe> contextProbeRegistration(ContextProbe probe) {
            FilterRegistrationBean<ContextProbe> registration = new FilterRegistrationBean<>(probe);
            registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
            return registration;
        }
    }

    /** Records the context each request's handler runs in. */
    @RestController
    static class ContextController {
        final Queue<MessageContext> seen = new ConcurrentLinkedQueue<>();

        @GetMapping("/context")
        String context() {
            MessageContext current = MessageContext.current();
            seen.add(current);
            return current.toString();
        }
    }

    /**
     * Wraps the starter's filter: enters a stale context before it, as work that leaked on a pooled thread would,
     * and records what the thread holds once the starter's filter has returned.
     */
    static class ContextProbe extends OncePerRequestFilter {
        static final MessageContext STALE = MessageContext.none().withLane(Lane.of("stale"));
        final Queue<MessageContext> after = new ConcurrentLinkedQueue<>();

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            try (MessageContext.Scope ignored = STALE.enter()) {
                chain.doFilter(request, response);
                after.add(MessageContext.current());
            }
        }
    }
}
