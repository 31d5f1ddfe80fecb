package io.lanemq.console;

import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One signed-in user of the console over HTTP, as a browser without JavaScript would be: a session cookie, the CSRF
 * token read from a page's form, form posts, redirects not followed (so a test sees where they go).
 */
final class ConsoleSession {
    private static final Pattern CSRF_INPUT = Pattern.compile("<input[^>]*name=\"_csrf\"[^>]*>");
    private static final Pattern VALUE = Pattern.compile("value=\"([^\"]+)\"");

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
            .followRedirects(HttpClient.Redirect.NEVER).build();

    private ConsoleSession(URI base) {
        this.base = base;
    }

    static ConsoleSession signIn(URI base, String user, String password) throws Exception {
        ConsoleSession session = new ConsoleSession(base);
        HttpResponse<String> login = session.post("/login", Map.of("username", user, "password", password), session.csrf("/login"));
        if (login.statusCode() != 302 || login.headers().firstValue("Location").orElse("").contains("error")) {
            throw new IllegalStateException(user + " could not sign in: " + login.statusCode() + " " + login.headers().map());
        }
        return session;
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Posts a form with the session's CSRF token, as a page's form would. */
    HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
        return post(path, form, csrf("/topics"));
    }

    private HttpResponse<String> post(String path, Map<String, String> form, String csrf) throws Exception {
        Map<String, String> fields = new LinkedHashMap<>(form);
        if (csrf != null) {
            fields.put("_csrf", csrf);
        }
        StringBuilder body = new StringBuilder();
        fields.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&").append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                .append('=').append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
        return http.send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Posts without a CSRF token (a forged cross-site form). */
    HttpResponse<String> postWithoutCsrf(String path, Map<String, String> form) throws Exception {
        return post(path, form, null);
    }

    private String csrf(String page) throws Exception {
        Matcher input = CSRF_INPUT.matcher(get(page).body());
        Matcher value = input.find() ? VALUE.matcher(input.group()) : null;
        if (value == null || !value.find()) {
            throw new IllegalStateException("no CSRF token on " + page);
        }
        return value.group(1);
    }

    /** Makes a change (an action's POST) and returns the id of the proposal its preview shows. */
    String propose(String path, Map<String, String> form) throws Exception {
        HttpResponse<String> response = post(path, form);
        String location = response.headers().firstValue("Location").orElse("");
        if (response.statusCode() != 302 || !location.contains("/changes/")) {
            throw new IllegalStateException("no preview for " + path + ": " + response.statusCode() + " " + location + " " + response.body());
        }
        return location.substring(location.lastIndexOf('/') + 1);
    }

    HttpResponse<String> publish(String proposalId, String comment) throws Exception {
        return post("/changes/" + proposalId + "/publish", Map.of("comment", comment));
    }
}
