package io.lanemq.console.access;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The console's built-in identity store: users with a bcrypt hash and a role, and which topics and groups each
 * application owns. A stand-in that an OIDC provider can replace: the rest of the console sees only Spring Security's
 * authentication and {@link Ownership}.
 *
 * <pre>{@code
 * users:
 *   olga: { passwordHash: "$2y$10$...", role: OPERATOR }
 *   erik: { passwordHash: "$2y$10$...", role: EDITOR, applications: [checkout] }
 *   vera: { passwordHash: "$2y$10$...", role: VIEWER }
 * applications:
 *   checkout: { topics: [order-paid, "checkout.*"], groups: [billing] }   # "x*": every name starting with x
 * }</pre>
 *
 * Hashes only, never passwords: {@code htpasswd -nbBC 10 "" 'secret' | tr -d ':\n'} prints one.
 */
public record UsersFile(Map<String, User> users, Map<String, Application> applications) {
    /** What a bcrypt hash looks like: {@code $2a$}, {@code $2b$} or {@code $2y$}, cost, 53 characters. */
    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]?\\$\\d\\d\\$[./A-Za-z0-9]{53}");

    public UsersFile {
        users = Map.copyOf(users == null ? Map.of() : users);
        applications = Map.copyOf(applications == null ? Map.of() : applications);
    }

    public record User(String passwordHash, Role role, List<String> applications) {
        public User {
            applications = applications == null ? List.of() : List.copyOf(applications);
        }
    }

    /** @param topics logic topic names; one ending in {@code *} matches every name with that prefix */
    public record Application(List<String> topics, List<String> groups) {
        public Application {
            topics = topics == null ? List.of() : List.copyOf(topics);
            groups = groups == null ? List.of() : List.copyOf(groups);
        }
    }

    /**
     * Reads and checks the file.
     *
     * @throws IllegalArgumentException naming the file and the user or key at fault
     */
    public static UsersFile read(Path file) {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory()).enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        UsersFile parsed;
        try {
            parsed = yaml.readValue(file.toFile(), UsersFile.class);
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException("users file " + file + ": " + e.getOriginalMessage() + " at " + e.getPathReference(), e);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the users file " + file + ": " + e.getMessage(), e);
        }
        if (parsed == null || parsed.users().isEmpty()) {
            throw new IllegalArgumentException("users file " + file + " declares no users");
        }
        Map<String, User> checked = new LinkedHashMap<>();
        parsed.users().forEach((name, user) -> {
            String at = "users file " + file + ", user '" + name + "': ";
            if (user == null || user.passwordHash() == null || !BCRYPT.matcher(user.passwordHash()).matches()) {
                throw new IllegalArgumentException(at + "passwordHash must be a bcrypt hash ($2y$10$...), never a password");
            }
            if (user.role() == null) {
                throw new IllegalArgumentException(at + "role is required (VIEWER, EDITOR or OPERATOR)");
            }
            for (String application : user.applications()) {
                if (!parsed.applications().containsKey(application)) {
                    throw new IllegalArgumentException(at + "application '" + application + "' is not declared under applications "
                            + Set.copyOf(parsed.applications().keySet()));
                }
            }
            checked.put(name, user);
        });
        return new UsersFile(checked, parsed.applications());
    }
}
