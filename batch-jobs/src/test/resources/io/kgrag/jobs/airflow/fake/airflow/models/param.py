"""Fake airflow.models.param.Param: a default and a JSON schema (Param(default, description=None, **schema))."""

try:
    import jsonschema
except ImportError:  # the harness reports that the schemas were not checked
    jsonschema = None


class Param:
    def __init__(self, default=None, description=None, **schema):
        self.value = default
        self.description = description
        self.schema = dict(schema)
        if description is not None:
            self.schema["description"] = description

    def resolve(self, value, name):
        """value, checked against the schema as Airflow checks it (when jsonschema is installed)."""
        if jsonschema is not None:
            try:
                jsonschema.validate(value, self.schema, format_checker=jsonschema.FormatChecker())
            except jsonschema.ValidationError as e:
                raise ValueError(f"param {name}: invalid value {value!r}: {e.message}") from None
        return value
