package io.kgrag.core.sgrag.qa;

import java.io.Serializable;

/**
 * A query path sent to the path index: its number within the question, label keys
 * ({@link io.kgrag.core.index.partition.PathPartition#WILDCARD} for an unknown) and dominance vector.
 */
public record PathQuery(int pathNo, long[] labelKeys, float[] vector) implements Serializable {}
