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
 * Scrapes the dial test's and the SDK applications' Prometheus endpoints when a page asks (no background polling:
 * the console holds no state, and a page load costs one request per endpoint, each bounded by a short timeout).
 * An endpoint that does not answer becomes a line in {@link HealthReport#errors()}, not a failed page. Thread-safe.
 */
public final class HealthScraper {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final Optional<URI> dialTest;
    private final List<URI> sdkEndpoints;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

    public HealthScraper(Optional<URI> dialTest, List<URI> sdkEndpoints) {
        this.dialTest = dialTest;
        this.sdkEndpoints = List.copyOf(sdkEndpoints);
    }

    public boolean configured() {
        return dialTest.isPresent() || !sdkEndpoints.isEmpty();
    }

    public HealthReport scrape() {
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
        return new HealthReport(lanes, clients, errors);
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
