package io.lanemq.console.health;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads the health page's figures when a page asks (no background polling: the console holds no state, and a page
 * load costs one request per endpoint or query, each bounded by a short timeout). With a Prometheus configured, its
 * HTTP API gives figures over a recent window ({@link PrometheusHealth}); without one, the dial test's and the SDK
 * applications' endpoints are scraped and their counters shown since each process started. The report says which
 * ({@link HealthReport#basis()}). Whatever does not answer becomes a line in {@link HealthReport#errors()}, not a
 * failed page. Thread-safe.
 */
public final class HealthScraper {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final Optional<URI> dialTest;
    private final List<URI> sdkEndpoints;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private final Optional<PrometheusHealth> prometheus;

    /** Scrapes the endpoints themselves: counters since each process started. */
    public HealthScraper(Optional<URI> dialTest, List<URI> sdkEndpoints) {
        this(dialTest, sdkEndpoints, Optional.empty(), Duration.ofMinutes(5));
    }

    /**
     * @param prometheus when present, figures over {@code window} come from this Prometheus (its base address, e.g.
     *                   {@code http://prometheus:9090}) and the endpoints are not scraped
     */
    public HealthScraper(Optional<URI> dialTest, List<URI> sdkEndpoints, Optional<URI> prometheus, Duration window) {
        this.dialTest = dialTest;
        this.sdkEndpoints = List.copyOf(sdkEndpoints);
        this.prometheus = prometheus.map(uri -> new PrometheusHealth(new PrometheusApi(uri, http, TIMEOUT), window));
    }

    public boolean configured() {
        return prometheus.isPresent() || dialTest.isPresent() || !sdkEndpoints.isEmpty();
    }

    public HealthReport scrape() {
        if (prometheus.isPresent()) {
            return windowed(prometheus.get());
        }
        List<String> errors = new ArrayList<>();
        List<LaneFigures> lanes = dialTest.map(uri -> fetch(uri, errors)).map(t -> HealthSeries.lanes(PrometheusText.parse(t)))
                .orElse(List.of());
        List<ClientReload> clients = new ArrayList<>();
        for (URI uri : sdkEndpoints) {
            String text = fetch(uri, errors);
            if (text != null) {
                clients.addAll(HealthSeries.clients(PrometheusText.parse(text), uri.toString()));
            }
        }
        return new HealthReport(HealthReport.SINCE_START, lanes, clients, errors);
    }

    private HealthReport windowed(PrometheusHealth source) {
        String basis = "over the last " + source.window() + ", from Prometheus at " + source.api().base();
        List<String> errors = new ArrayList<>();
        List<LaneFigures> lanes = List.of();
        List<ClientReload> clients = List.of();
        try {
            lanes = source.lanes();
            clients = source.clients();
        } catch (java.io.IOException e) {
            errors.add("Prometheus at " + source.api().base() + " did not answer: " + cause(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            errors.add("Prometheus at " + source.api().base() + ": interrupted");
        }
        return new HealthReport(basis, lanes, clients, errors);
    }

    /** Each cause by its type and message: a refused connection's exceptions carry no message of their own. */
    static String cause(Throwable e) {
        List<String> chain = new ArrayList<>();
        for (Throwable t = e; t != null && chain.size() < 4; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            chain.add(t.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message));
        }
        return String.join(", caused by ", chain);
    }

    private String fetch(URI uri, List<String> errors) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                errors.add(uri + " answered HTTP " + response.statusCode());
                return null;
            }
            return response.body();
        } catch (java.io.IOException e) {
            errors.add(uri + " did not answer: " + cause(e));
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            errors.add(uri + ": interrupted");
            return null;
        }
    }
}
