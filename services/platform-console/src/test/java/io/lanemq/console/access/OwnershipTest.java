package io.lanemq.console.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lanemq.console.change.Change.Scope;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OwnershipTest {
    private static final String HASH = "$2a$04$" + "a".repeat(53);

    private final Ownership ownership = new Ownership(new UsersFile(Map.of(
            "olga", new UsersFile.User(HASH, Role.OPERATOR, List.of()),
            "erik", new UsersFile.User(HASH, Role.EDITOR, List.of("checkout")),
            "vera", new UsersFile.User(HASH, Role.VIEWER, List.of("checkout"))),
            Map.of("checkout", new UsersFile.Application(List.of("order-paid", "checkout.*"), List.of("billing")))));

    @Test
    void anEditorChangesTheTopicsAndGroupsOfTheirApplicationsOnly() {
        assertThat(ownership.mayApply("erik", Scope.topic("order-paid"))).isTrue();
        assertThat(ownership.mayApply("erik", Scope.topic("checkout.carts"))).as("a prefix pattern").isTrue();
        assertThat(ownership.mayApply("erik", Scope.topic("refund"))).isFalse();
        assertThat(ownership.mayApply("erik", Scope.group("refund", "billing"))).as("their group on another topic").isTrue();
        assertThat(ownership.mayApply("erik", Scope.group("order-paid", "ledger"))).as("another group on their topic").isFalse();
        assertThat(ownership.mayApply("erik", Scope.operator())).isFalse();
    }

    @Test
    void anOperatorChangesEverythingAViewerOrAStrangerNothing() {
        assertThat(ownership.mayApply("olga", Scope.operator())).isTrue();
        assertThat(ownership.mayApply("olga", Scope.topic("refund"))).isTrue();
        assertThat(ownership.mayApply("vera", Scope.topic("order-paid"))).isFalse();
        assertThat(ownership.mayApply("mallory", Scope.topic("order-paid"))).isFalse();
    }

    @Test
    void theUsersFileRefusesAPasswordInPlaceOfAHashNamingTheUser(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("users.yaml");
        Files.writeString(file, "users:\n  erik: { passwordHash: hunter2, role: EDITOR }\n");

        assertThatThrownBy(() -> UsersFile.read(file)).hasMessageContaining("user 'erik': passwordHash must be a bcrypt hash");

        Files.writeString(file, "users:\n  erik: { passwordHash: \"" + HASH + "\", role: EDITOR, applications: [shop] }\n");
        assertThatThrownBy(() -> UsersFile.read(file)).hasMessageContaining("application 'shop' is not declared");
    }
}
