package io.lanemq.console.health;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lanemq.console.health.PrometheusText.Sample;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Instant queries against Prometheus's HTTP API ({@code GET /api/v1/query}): each answer's vector as samples (labels
 * and value, no name). A query Prometheus rejects, or an answer that is not a vector, throws
 * {@link PrometheusException} with Prometheus's own error text. Thread-safe.
 */
final class PrometheusApi {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient http;
    private final Duration timeout;

    PrometheusApi(URI base, HttpClient http, Duration timeout) {
        String text = base.toString();
        this.base = URI.create(text.endsWith("/") ? text : text + "/");
        this.http = http;
        this.timeout = timeout;
    }

    URI base() {
        return base;
    }

    List<Sample> query(String promql) throws IOException, InterruptedException {
        URI uri = base.resolve("api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body;
        try {
            body = JSON.readTree(response.body());
        } catch (IOException e) {
            throw new PrometheusException("answered HTTP " + response.statusCode() + " with no JSON to " + promql);
        }
        if (!"success".equals(body.path("status").asText())) {
            throw new PrometheusException("rejected " + promql + ": " + body.path("errorType").asText() + ": "
                    + body.path("error").asText());
        }
        JsonNode data = body.path("data");
        if (!"vector".equals(data.path("resultType").asText())) {
            throw new PrometheusException("answered " + data.path("resultType").asText() + ", not a vector, to " + promql);
        }
        List<Sample> samples = new ArrayList<>();
        for (JsonNode series : data.path("result")) {
            Map<String, String> labels = new LinkedHashMap<>();
            series.path("metric").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            String value = series.path("value").path(1).asText();
            samples.add(new Sample(labels.getOrDefault("__name__", ""), labels, PrometheusText.value(value)));
        }
        return samples;
    }

    /** Prometheus answered, but not with a vector for the query. */
    static final class PrometheusException extends IOException {
        PrometheusException(String message) {
            super(message);
        }
    }
}
