from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("table", "0004_protocol"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="presence_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="seat",
            name="presence_socket",
            field=models.CharField(blank=True, default="", max_length=200),
        ),
    ]
