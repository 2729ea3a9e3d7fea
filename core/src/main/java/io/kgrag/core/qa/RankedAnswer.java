package io.kgrag.core.qa;

import java.io.Serializable;

/** One entry of {@code answers.ranked}. */
public record RankedAnswer(String answer, long entityId, double score) implements Serializable {}
