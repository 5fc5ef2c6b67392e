#!/usr/bin/env python3
"""Checks the scheduler recipes in examples/ against the APIs' own schemas, offline.

  check-recipes.py kubernetes FILE.yaml [VERSION]   the Job against Kubernetes' OpenAPI schema
  check-recipes.py aws-batch FILE.json              a RegisterJobDefinition request against botocore's model

Kubernetes: kubernetes-validate's strict schemas (every field known, in its place, of its
type), and then each string field whose schema lists its values ("Possible values are: - In
…", "Possible enum values: - `"Indexed"` …") holding one of them: the OpenAPI schema gives
those only as prose, and a misspelled `FailIndex` or `NotIn` is exactly what a podFailurePolicy
must not hold. AWS Batch: botocore's parameter validation for RegisterJobDefinition (unknown
or misplaced keys, types, required members). Exit 0 when the file passes, 1 with one line per
problem otherwise. make test installs both packages into .build/recipe-check (a venv).
"""
import json
import re
import sys


def enum_values(description):
    """The values a schema description lists, or None when it lists none. The schema has them
    in three kinds of prose: a list after "Possible enum values:" or "Possible values are:",
    "One of Always, OnFailure, Never.", and "It can be `NonIndexed` (default) or `Indexed`."."""
    for marker in ("Possible enum values:", "Possible values are:"):
        if marker in description:
            listed = description.split(marker, 1)[1]
            values = re.findall(r'^\s*-\s*`"([^"`]+)"`', listed, re.M) or re.findall(r"^\s*-\s*([A-Za-z][\w.-]*):", listed, re.M)
            return set(values) or None
    one_of = re.search(r"\bOne of ([A-Z]\w*(?:, [A-Z]\w*)*,? or [A-Z]\w*|[A-Z]\w*(?:, [A-Z]\w*)+)\.", description)
    if one_of:
        return set(re.findall(r"[A-Z]\w*", one_of.group(1)))
    can_be = re.search(r"\bIt can be ((?:`[A-Za-z]\w*`[^.`]*?)+)\.", description)
    if can_be:
        return set(re.findall(r"`([A-Za-z]\w*)`", can_be.group(1)))
    return None


def check_kubernetes(path, version):
    import kubernetes_validate
    from kubernetes_validate import utils
    import yaml

    with open(path) as stream:
        documents = [document for document in yaml.safe_load_all(stream) if document]
    problems = []
    for document in documents:
        try:
            validated = kubernetes_validate.validate(document, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            where = ".".join(str(step) for step in error.path)
            problems.append(f"{path}: {where}: {error.message} (Kubernetes {error.version} schema)")
            continue
        api = re.sub(r"^([^./]*)(?:\.[^/]*)?/", r"\1-", document["apiVersion"])
        folder = f"kubernetes-json-schema/v{validated}.0-local-strict"
        schema = utils.schema_contents(f"{folder}/{document['kind'].lower()}-{api}.json", version)
        definitions = utils.schema_contents(f"{folder}/_definitions.json", version)["$defs"]

        def resolve(node):
            while "$ref" in node:
                node = definitions[node["$ref"].rsplit("/", 1)[-1]]
            return node

        def walk(value, node, where):
            node = resolve(node)
            for key in ("allOf", "anyOf", "oneOf"):
                for branch in node.get(key, []):
                    walk(value, branch, where)
            if isinstance(value, dict):
                for key, item in value.items():
                    if key in node.get("properties", {}):
                        walk(item, node["properties"][key], f"{where}.{key}" if where else key)
            elif isinstance(value, list) and "items" in node:
                for index, item in enumerate(value):
                    walk(item, node["items"], f"{where}[{index}]")
            elif isinstance(value, str):
                allowed = enum_values(node.get("description", ""))
                if allowed is not None and value not in allowed:
                    problems.append(f"{path}: {where}: {value!r} is not one of {sorted(allowed)} (Kubernetes {validated} schema)")

        walk(document, schema, "")
    return problems


def check_aws_batch(path):
    import botocore.session
    from botocore.exceptions import ParamValidationError
    from botocore.validate import validate_parameters

    with open(path) as stream:
        request = json.load(stream)
    model = botocore.session.get_session().get_service_model("batch")
    try:
        validate_parameters(request, model.operation_model("RegisterJobDefinition").input_shape)
    except ParamValidationError as error:
        return [f"{path}: {line}" for line in str(error).splitlines()[1:] if line.strip()]
    return []


def main(arguments):
    if len(arguments) < 2 or arguments[0] not in ("kubernetes", "aws-batch"):
        print(__doc__.strip().splitlines()[2:4], file=sys.stderr)
        return 64
    if arguments[0] == "kubernetes":
        problems = check_kubernetes(arguments[1], arguments[2] if len(arguments) > 2 else "1.33.0")
    else:
        problems = check_aws_batch(arguments[1])
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
