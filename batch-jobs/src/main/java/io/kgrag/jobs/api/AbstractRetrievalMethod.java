package io.kgrag.jobs.api;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A {@link RetrievalMethod} whose declaration (name, description, stages, settings record, flags) is given once to
 * the constructor, so that a method's class holds only how a run starts ({@link #prepare}).
 */
public abstract class AbstractRetrievalMethod implements RetrievalMethod {
  private final String name;
  private final String description;
  private final List<String> requiredStages;
  private final Class<? extends Record> optionsType;
  private final Set<QaFlag> flags;

  protected AbstractRetrievalMethod(String name, String description, List<String> requiredStages, Class<? extends Record> optionsType, Set<QaFlag> flags) {
    this.name = Objects.requireNonNull(name, "name");
    this.description = Objects.requireNonNull(description, "description");
    this.requiredStages = List.copyOf(requiredStages);
    this.optionsType = Objects.requireNonNull(optionsType, "optionsType");
    this.flags = Set.copyOf(flags);
  }

  @Override
  public final String name() {
    return name;
  }

  @Override
  public final String description() {
    return description;
  }

  @Override
  public final List<String> requiredStages() {
    return requiredStages;
  }

  @Override
  public final Class<? extends Record> optionsType() {
    return optionsType;
  }

  @Override
  public final Set<QaFlag> flags() {
    return flags;
  }
}
