package io.lanemq.spring;

import static org.assertj.core.api.Assertions.assertThat;

import io.lanemq.api.Lane;
import io.lanemq.api.MessageContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.http.HttpMessageConvertersAutoConfiguration;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.autoconfigure.web.client.RestClientAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.ServletWebServerFactoryAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.Async;
import org.springframework.scheduling.annotation.EnableAsync;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * The marks across every boundary of a real embedded Tomcat on 127.0.0.1: a request in lane A.X (or marked stress
 * test) -> an {@code @Async} method -> an outbound {@code RestClient} call to a second endpoint (standing for a
 * second application: it reads the marks only from the call's headers) -> where that endpoint would send, the
 * thread is in the caller's context, which the producer stamps on the message (stamping and shadow-topic routing
 * are the SDK's, tested in sdk-core).
 */
class ContextAcrossServicesTest {
    private static ConfigurableApplicationContext application;
    private static HttpClient http;
    private static URI front;
    private static Back back;

    @BeforeAll
    static void startServer() {
        application = new SpringApplicationBuilder(WebApplication.class).web(WebApplicationType.SERVLET)
                .properties("spring.main.banner-mode=off", "server.address=127.0.0.1", "server.port=0", "lanemq.enabled=true")
                .run();
        int port = ((ServletWebServerApplicationContext) application).getWebServer().getPort();
        application.getBean(Front.class).baseUrl = "http://127.0.0.1:" + port;
        front = URI.create("http://127.0.0.1:" + port + "/front");
        back = application.getBean(Back.class);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stopServer() {
        if (application != null) {
            application.close();
        }
    }

    @BeforeEach
    void forget() {
        back.sendContexts.clear();
    }

    @Test
    void aLaneRequestsAsyncWorkCallsTheNextServiceWhichSendsInTheSameLane() throws Exception {
        assertThat(get("X-LaneMQ-Lane", "A.X").statusCode()).isEqualTo(200);

        assertThat(back.sendContexts).containsExactly(MessageContext.none().withLane(Lane.of("A.X")));
    }

    @Test
    void aStressTestRequestStaysStressTestTrafficAtTheNextServicesSend() throws Exception {
        assertThat(get("X-LaneMQ-Stress-Test", "true").statusCode()).isEqualTo(200);

        assertThat(back.sendContexts).as("marked, so the producer routes it to shadow topics only")
                .containsExactly(MessageContext.none().withStressTest(true));
    }

    @Test
    void aBaseRequestStaysBase() throws Exception {
        assertThat(get().statusCode()).isEqualTo(200);

        assertThat(back.sendContexts).containsExactly(MessageContext.none());
    }

    private static HttpResponse<String> get(String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(front).timeout(Duration.ofSeconds(10));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAsync
    @ImportAutoConfiguration({ServletWebServerFactoryAutoConfiguration.class, DispatcherServletAutoConfiguration.class,
            WebMvcAutoConfiguration.class, HttpMessageConvertersAutoConfiguration.class, RestClientAutoConfiguration.class,
            TaskExecutionAutoConfiguration.class, LaneMqContextAutoConfiguration.class, LaneMqPropagationAutoConfiguration.class})
    static class WebApplication {
        @Bean
        Front front(AsyncCaller caller) {
            return new Front(caller);
        }

        @Bean
        AsyncCaller asyncCaller(RestClient.Builder builder) {
            return new AsyncCaller(builder.build());
        }

        @Bean
        Back back() {
            return new Back();
        }
    }

    /** The first service: hands the work to an @Async method and waits for it. */
    @RestController
    static class Front {
        private final AsyncCaller caller;
        volatile String baseUrl;

        Front(AsyncCaller caller) {
            this.caller = caller;
        }

        @GetMapping("/front")
        String front() {
            return caller.callBack(baseUrl).join();
        }
    }

    static class AsyncCaller {
        private final RestClient client;

        AsyncCaller(RestClient client) {
            this.client = client;
        }

        @Async
        public CompletableFuture<String> callBack(String baseUrl) {
            return CompletableFuture.completedFuture(client.get().uri(baseUrl + "/back").retrieve().body(String.class));
        }
    }

    /** The second service: its filter puts it in the context of the call's headers; it records where a send would be. */
    @RestController
    static class Back {
        final Queue<MessageContext> sendContexts = new ConcurrentLinkedQueue<>();

        @GetMapping("/back")
        String back() {
            sendContexts.add(MessageContext.current());
            return "sent";
        }
    }
}
