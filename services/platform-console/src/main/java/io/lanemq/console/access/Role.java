package io.lanemq.console.access;

/** What a console user may do; each role includes the ones below it. */
public enum Role {
    /** Reads every page; changes nothing. */
    VIEWER,
    /** Also changes the topics and groups of their own applications (weights, mode, rate limit, the topic form). */
    EDITOR,
    /** Also changes every topic and group, drains an IDC and undoes it, rolls back to any revision. */
    OPERATOR;

    /** Spring Security's authority name. */
    public String authority() {
        return "ROLE_" + name();
    }
}
