package io.lanemq.console.access;

import io.lanemq.console.change.Change;
import java.util.List;

/**
 * Who may apply which change: an operator any; an editor one that touches only a topic (or a group) of one of their
 * applications; a viewer none. The platform configuration has no owner field (it is the SDK's document and stays
 * free of console concerns), so ownership lives in the console's users file.
 */
public final class Ownership {
    private final UsersFile users;

    public Ownership(UsersFile users) {
        this.users = users;
    }

    public boolean mayApply(String user, Change.Scope scope) {
        UsersFile.User account = users.users().get(user);
        if (account == null) {
            return false;
        }
        return switch (account.role()) {
            case OPERATOR -> true;
            case VIEWER -> false;
            case EDITOR -> !scope.operatorOnly() && owns(account.applications(), scope);
        };
    }

    private boolean owns(List<String> applications, Change.Scope scope) {
        for (String name : applications) {
            UsersFile.Application application = users.applications().get(name);
            // A group is its application's even on another team's topic: a mode switch needs the group only.
            if (scope.group() != null ? matches(application.groups(), scope.group()) : matches(application.topics(), scope.topic())) {
                return true;
            }
        }
        return false;
    }

    private static boolean matches(List<String> patterns, String name) {
        return patterns.stream().anyMatch(p -> p.endsWith("*") ? name.startsWith(p.substring(0, p.length() - 1)) : p.equals(name));
    }
}
